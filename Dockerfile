# The bot's image: one `python -m bot` worker. compose.yaml runs several behind Caddy.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY renderer ./renderer
COPY ai ./ai
COPY storage ./storage
COPY gameplay ./gameplay
COPY teacher ./teacher
COPY bot ./bot
RUN pip install . && useradd --system --home /app nardy
USER nardy
# The webhook server's port (WEBHOOK_PORT); GET /healthz answers 200 while the worker serves.
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
    CMD python -c "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('WEBHOOK_PORT', '8080') + '/healthz', timeout=4)"
# SIGTERM (docker stop) finishes the updates in flight, then exits; give it SHUTDOWN_TIMEOUT.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
