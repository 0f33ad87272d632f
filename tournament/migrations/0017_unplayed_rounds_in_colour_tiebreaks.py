"""Unplayed rounds in the colour tiebreaks (issue #36, item 11).

New events count an unplayed round as a game by its VP; events that exist already keep the
rule they began under ("nothing"), so no standings change under the players' feet: the field
is added with "nothing" for the existing rows, then its default becomes "widest".
"""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0016_withdrawals_and_no_shows_in_history'),
    ]

    operations = [
        migrations.AddField(
            model_name='event',
            name='unplayed_colours',
            field=models.CharField(choices=[('widest', 'As a game by its VP: 1 VP as 18 in every colour against 0, 0 VP as 0 against 18, ½ VP as 0 against 0'), ('nothing', 'They add nothing (the earlier rule: not playing can rank above a played loss)')], default='nothing', help_text='Byes, forfeits, absences and decisions without scores. As a game by its VP, not playing never ranks above a played loss, nor a forfeit win below a played win.', max_length=10, verbose_name='unplayed rounds in the colour tiebreaks'),
        ),
        migrations.AlterField(
            model_name='event',
            name='unplayed_colours',
            field=models.CharField(choices=[('widest', 'As a game by its VP: 1 VP as 18 in every colour against 0, 0 VP as 0 against 18, ½ VP as 0 against 0'), ('nothing', 'They add nothing (the earlier rule: not playing can rank above a played loss)')], default='widest', help_text='Byes, forfeits, absences and decisions without scores. As a game by its VP, not playing never ranks above a played loss, nor a forfeit win below a played win.', max_length=10, verbose_name='unplayed rounds in the colour tiebreaks'),
        ),
    ]
