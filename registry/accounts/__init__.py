"""Accounts (issue 39): an email address verified by a link, password reset and change, the
settings page (notices by email and on the site, board preferences), closing an account, and
the mail queue every mail of the site goes through (docs/accounts.md)."""
