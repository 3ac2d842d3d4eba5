"""Issue 19: ``ArchivedGame`` is ``RegistryGame`` (it also holds games still being played), and
its two ``"live"`` values say what they mean: ``source`` ``site`` (played on this site) and
``status`` ``playing``. Plain SQL updates: a migration imports no live code."""

from django.db import migrations, models


def forward(apps, schema_editor):
    games = apps.get_model("registry", "RegistryGame").objects
    games.filter(source="live").update(source="site")
    games.filter(status="live").update(status="playing")


def backward(apps, schema_editor):
    games = apps.get_model("registry", "RegistryGame").objects
    games.filter(source="site").update(source="live")
    games.filter(status="playing").update(status="live")


class Migration(migrations.Migration):

    dependencies = [
        ("play", "0004_command_path"),
        # after every migration that names the model by its old name
        ("registry", "0007_i22_rating_phases"),
        ("registry", "0007_i26_arbiters"),
    ]

    operations = [
        migrations.RenameModel("ArchivedGame", "RegistryGame"),
        migrations.AlterField(
            model_name="registrygame", name="source",
            field=models.CharField(choices=[("site", "site"), ("submitted", "submitted")],
                                   default="site", max_length=10)),
        migrations.AlterField(
            model_name="registrygame", name="status",
            field=models.CharField(choices=[("playing", "playing"), ("finished", "finished"),
                                            ("annulled", "annulled")],
                                   default="playing", max_length=10)),
        migrations.RunPython(forward, backward),
    ]
