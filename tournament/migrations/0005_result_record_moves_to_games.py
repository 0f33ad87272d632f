"""``Result.record`` is gone: ``games.ResultRecord`` (filled by ``games.0003``) holds the link."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0004_print_language'),
        ('games', '0003_result_record'),
    ]

    operations = [
        migrations.RemoveField(
            model_name='result',
            name='record',
        ),
    ]
