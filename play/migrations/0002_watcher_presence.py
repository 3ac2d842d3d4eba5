"""Watcher rows carry their process and a heartbeat, so a killed process's rows go stale."""

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("play", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="watcher",
            name="server",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AddField(
            model_name="watcher",
            name="seen",
            field=models.DateTimeField(default=django.utils.timezone.now),
        ),
        migrations.AddIndex(
            model_name="watcher",
            index=models.Index(fields=["game", "role", "seen"], name="play_watcher_presence"),
        ),
    ]
