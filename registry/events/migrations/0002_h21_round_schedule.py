"""R41: a round's start time (the worker starts it) and the claim of its start notices.

Rounds started before this migration are marked notified: their players were told when they
started (the banner), and the worker must not mail them now."""

from django.db import migrations, models
from django.db.models import F


def _old_rounds_notified(apps, schema_editor):
    Round = apps.get_model("events", "Round")
    Round.objects.filter(state="started").update(notified=F("started"))


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0001_i21_events"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="scheduled",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="round",
            name="notified",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddIndex(
            model_name="round",
            index=models.Index(fields=["state", "scheduled"], name="events_round_due"),
        ),
        migrations.RunPython(_old_rounds_notified, migrations.RunPython.noop),
    ]
