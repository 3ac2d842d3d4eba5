# The talu play server image: daphne serving talu_site.asgi (HTTP and websockets).
# Build: docker build -t talu-server .   Run: see docker-compose.yml and docs/deployment.md.
# No secret is baked in: SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL, REDIS_URL come at run time.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    TALU_KEYRING=/data/keyring \
    PORT=8000

# gnupg signs the game records (registry.records); nothing else is needed at run time.
RUN apt-get update \
    && apt-get install -y --no-install-recommends gnupg \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
# The dependencies (pyproject's list, read with the standard library) in a layer of their own,
# so a change to the code does not reinstall them; then the project itself, without them.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt
COPY . .
RUN pip install --no-deps .

# Static files are collected into the image (whitenoise serves them); DEBUG=true only so the
# settings load without a SECRET_KEY at build time.
RUN DEBUG=true python manage.py collectstatic --noinput -v 0

RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin talu \
    && mkdir -p /data/keyring \
    && chown -R talu:talu /data \
    && chmod 700 /data/keyring
USER talu

EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "deploy/healthcheck.py"]

# `python -m` keeps /app first on sys.path (the source tree, with templates and static).
# talu_site.serve is daphne with the site's HTTP connections (a too-long address answered 414
# in words, not dropped) and, without REDIS_URL only, the worker in the process; the settings
# are read before it listens, so a bad value stops the container at once.
# No --proxy-headers: daphne would take X-Forwarded-For from whoever sent it as the client's
# address; the site believes it only from TALU_TRUSTED_PROXIES (talu_site/clientaddr.py).
CMD ["sh", "-c", "exec python -m talu_site.serve -b 0.0.0.0 -p \"$PORT\" --websocket_connect_timeout 30 talu_site.asgi:application"]
