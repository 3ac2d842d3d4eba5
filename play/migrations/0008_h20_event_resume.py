"""Issue 20: an event's game (R41: an opening turn not completed in time is an unplayed loss)
and the time an arbiter sets for an adjourned game to resume (R38)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("play", "0007_i23_pool"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="in_event",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="game",
            name="resume_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(condition=models.Q(("resume_at__isnull", False)),
                               fields=["resume_at"], name="game_resume_at"),
        ),
    ]
