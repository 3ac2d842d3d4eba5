"""The audit trail's actions of issues 22 (``phase``) and 26 (``appoint``, ``dismiss``,
``arbitrate``) together: each branch's own migration named only its own."""

from django.db import migrations, models

ACTIONS = ("submit", "annul", "correct", "recompute", "phase", "appoint", "dismiss", "arbitrate")


class Migration(migrations.Migration):

    dependencies = [
        ("registry", "0008_registry_game"),
    ]

    operations = [
        migrations.AlterField(
            model_name="auditentry",
            name="action",
            field=models.CharField(choices=[(a, a) for a in ACTIONS], max_length=10),
        ),
    ]
