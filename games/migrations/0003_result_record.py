"""The link from a result version to its game record moves to the games app.

It used to be ``tournament.Result.record``, a foreign key from the event app up to games (the
reason games needed a second initial migration). The links are copied here first; then
``tournament.0005`` removes the old field.
"""

import django.db.models.deletion
from django.db import migrations, models


def copy_links(apps, schema_editor):
    Result = apps.get_model("tournament", "Result")
    ResultRecord = apps.get_model("games", "ResultRecord")
    ResultRecord.objects.bulk_create(
        ResultRecord(result_id=result, record_id=record)
        for result, record in Result.objects.filter(record__isnull=False)
        .values_list("pk", "record_id").iterator()
    )


def copy_back(apps, schema_editor):
    Result = apps.get_model("tournament", "Result")
    ResultRecord = apps.get_model("games", "ResultRecord")
    for result, record in ResultRecord.objects.values_list("result_id", "record_id").iterator():
        Result.objects.filter(pk=result).update(record_id=record)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0002_initial'),
        ('tournament', '0004_print_language'),
    ]

    operations = [
        migrations.CreateModel(
            name='ResultRecord',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('record', models.ForeignKey(on_delete=django.db.models.deletion.RESTRICT, related_name='result_links', to='games.gamerecord')),
                ('result', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='record_link', to='tournament.result')),
            ],
        ),
        migrations.RunPython(copy_links, copy_back),
    ]
