"""The events' game column loses its own index: the unique (game, version) index starts with it
and serves every lookup by game, and every stored step paid for a second index entry."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0003_ratings_beyond_32_bits"),
    ]

    operations = [
        migrations.AlterField(
            model_name="gameevent",
            name="game",
            field=models.ForeignKey(db_index=False,
                                    on_delete=django.db.models.deletion.CASCADE,
                                    related_name="events", to="play.game"),
        ),
    ]
