from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "registry.accounts"
    label = "accounts"
    verbose_name = "talu accounts"

    def ready(self) -> None:
        from play.worker import jobs, notices
        from registry.accounts import mailqueue, notify

        # the worker sends the queued mail at every round (``manage.py send_queued_mail``
        # runs the same once); play's notices go through the queue and the player's settings
        jobs.register("accounts.mail", mailqueue.send_due)
        notices.use_mailer(notify.mail_notice)
