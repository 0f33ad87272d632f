"""What the automatic backups still owe: a backup is owed in the transaction that calls for it
(a round's closing), and the row goes once the file is written. A server that dies between
the commit and the writing finds the row when it is back and writes the backup then
(``backups.automatic.write_owed``), so no closed round is left without its backup."""

from django.db import models


class OwedBackup(models.Model):
    event = models.ForeignKey("tournament.Event", on_delete=models.CASCADE,
                              related_name="owed_backups")
    why = models.CharField(max_length=40)
    owed_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.why} of {self.event_id}"
