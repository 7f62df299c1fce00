# The app with its Cython core compiled at build time, for compose.yaml (docs/hosting.md).
FROM python:3.11-slim

RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY . .
RUN pip install --no-cache-dir ".[postgres]" \
    && apt-get purge -y gcc libc6-dev && apt-get autoremove -y \
    && useradd --create-home --uid 1000 player \
    && mkdir -p /data && chown player /data

USER player
ENV MAU_BINH_DATA_DIR=/data \
    PYTHONUNBUFFERED=1
EXPOSE 8501
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4)"
CMD ["streamlit", "run", "streamlit_app.py", "--server.address", "0.0.0.0", "--server.port", "8501", \
     "--server.headless", "true", "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
