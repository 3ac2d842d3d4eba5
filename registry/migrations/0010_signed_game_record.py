"""The kept, signed record of a finished game of a game other than talu (issue 36,
``registry.game_records``): one per play game."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("play", "0008_h20_event_resume"),
        ("registry", "0009_audit_actions_merged"),
    ]

    operations = [
        migrations.CreateModel(
            name="SignedGameRecord",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True,
                                           serialize=False, verbose_name="ID")),
                ("notation", models.TextField()),
                ("canonical", models.TextField()),
                ("hash", models.CharField(max_length=64)),
                ("signature", models.TextField()),
                ("registrar_id", models.CharField(max_length=64)),
                ("fingerprint", models.CharField(max_length=64)),
                ("created", models.DateTimeField(auto_now_add=True)),
                ("game", models.OneToOneField(on_delete=django.db.models.deletion.PROTECT,
                                              related_name="signed_record", to="play.game")),
            ],
        ),
    ]
