"""Telling an applicant the federation's decision (issue 38). The one place a decided
application is announced: logged, and a notice to the applicant on the site and by mail as
they chose (issue 39, ``registry.notices``)."""

from __future__ import annotations

import logging

from registry.notices.sources import club_decided

log = logging.getLogger(__name__)


def application_decided(application) -> None:
    """Called after an application is approved or refused, outside its transaction."""
    log.info("application %s of %s: %s", application.pk, application.name, application.status)
    club_decided(application)
