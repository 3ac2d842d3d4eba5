# The Hettlandic system as an event (issue 22): its phases and co-champions (R44-R46).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("events", "0001_i21_events"),
        ("registry", "0009_audit_actions_merged"),
    ]

    operations = [
        migrations.CreateModel(
            name="Hettlandic",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True,
                                           serialize=False, verbose_name="ID")),
                ("phase1_closed", models.DateTimeField(blank=True, null=True)),
                ("phase2_started", models.DateTimeField(blank=True, null=True)),
                ("awarded", models.DateTimeField(blank=True, null=True)),
                ("event", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE,
                                               related_name="hettlandic",
                                               to="events.event")),
                ("medals", models.OneToOneField(blank=True, null=True,
                                                on_delete=django.db.models.deletion.SET_NULL,
                                                related_name="medals_of", to="events.event")),
                ("phase", models.OneToOneField(blank=True, null=True,
                                               on_delete=django.db.models.deletion.PROTECT,
                                               related_name="hettlandic",
                                               to="registry.ratingphase")),
            ],
        ),
        migrations.CreateModel(
            name="CoChampion",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True,
                                           serialize=False, verbose_name="ID")),
                ("victory_score", models.IntegerField()),
                ("answer", models.CharField(blank=True, choices=[("accepted", "accepted"),
                                                                 ("declined", "declined")],
                                            max_length=8)),
                ("answered", models.DateTimeField(blank=True, null=True)),
                ("rank", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("award", models.CharField(blank=True, max_length=20)),
                ("entry", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                            related_name="+", to="events.entry")),
                ("hettlandic", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                                 related_name="champions",
                                                 to="events.hettlandic")),
            ],
            options={"ordering": ["-victory_score", "entry__key"]},
        ),
        migrations.AddConstraint(
            model_name="cochampion",
            constraint=models.UniqueConstraint(fields=("hettlandic", "entry"),
                                               name="events_cochampion_unique"),
        ),
    ]
