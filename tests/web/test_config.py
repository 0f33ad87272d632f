"""Settings selection from the environment (tournament.config) and the production secret check."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tournament.config import (
    ConfigurationError,
    channel_layers_config,
    database_config,
    env_flag,
    env_list,
    secret_key,
)

ROOT = Path(__file__).resolve().parents[2]


def test_sqlite_in_the_data_folder_without_database_url(tmp_path):
    config = database_config({}, tmp_path)
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["NAME"] == str(tmp_path / "db.sqlite3")


def test_postgresql_from_database_url(tmp_path):
    url = "postgres://postgres@127.0.0.1:5432/ingenious"
    config = database_config({"DATABASE_URL": url}, tmp_path)
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["NAME"], config["HOST"], config["PORT"], config["USER"]) == (
        "ingenious", "127.0.0.1", 5432, "postgres",
    )


def test_in_memory_channel_layer_without_redis_url():
    assert channel_layers_config({})["default"]["BACKEND"] == (
        "channels.layers.InMemoryChannelLayer"
    )


def test_redis_channel_layer_from_redis_url():
    layer = channel_layers_config({"REDIS_URL": "redis://127.0.0.1:6379/0"})["default"]
    # publish/subscribe: one PUBLISH per group send, messages pushed to every worker
    assert layer["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert layer["CONFIG"]["hosts"] == ["redis://127.0.0.1:6379/0"]
    assert layer["CONFIG"]["prefix"] == "asgi"


def test_channel_layer_prefix_keeps_sites_on_one_redis_apart():
    layer = channel_layers_config({"REDIS_URL": "redis://127.0.0.1:6379/0",
                                   "CHANNEL_LAYER_PREFIX": "site-b"})["default"]
    assert layer["CONFIG"]["prefix"] == "site-b"


def test_a_malformed_redis_url_is_refused():
    with pytest.raises(ConfigurationError, match="REDIS_URL"):
        channel_layers_config({"REDIS_URL": "127.0.0.1:6379"})


def test_secret_key_from_the_environment_is_used():
    assert secret_key({"SECRET_KEY": "s3cr3t"}, debug=False) == "s3cr3t"


def test_the_embedded_setup_creates_a_local_key_once(tmp_path):
    key = secret_key({}, debug=False, data_dir=tmp_path)
    assert len(key) > 40
    assert secret_key({}, debug=True, data_dir=tmp_path) == key
    assert (tmp_path / "secret-key.txt").stat().st_mode & 0o777 == 0o600
    assert secret_key({}, debug=False, data_dir=tmp_path / "other") != key


def test_production_without_secret_key_is_an_error(tmp_path):
    with pytest.raises(ConfigurationError, match="SECRET_KEY is not set"):
        secret_key({"DATABASE_URL": "postgres://db/x"}, debug=False, data_dir=tmp_path)
    assert not (tmp_path / "secret-key.txt").exists()


@pytest.mark.parametrize(
    ("raw", "expected"), [("1", True), ("TRUE", True), ("yes", True), ("0", False), ("", False)]
)
def test_flags(raw, expected):
    assert env_flag({"X": raw}, "X", default=False) is expected


def test_lists_drop_empty_items():
    assert env_list({"H": "a.example, ,b.example"}, "H", []) == ["a.example", "b.example"]
    assert env_list({}, "H", ["x"]) == ["x"]


def _start(env_overrides: dict[str, str], *args: str,
           command: str = "check") -> subprocess.CompletedProcess:
    dropped = {"SECRET_KEY", "DEBUG", "DJANGO_SETTINGS_MODULE", "DATABASE_URL", "DATA_DIR"}
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env.update(env_overrides)
    return subprocess.run(
        [sys.executable, "manage.py", command, *args], cwd=ROOT, env=env,
        capture_output=True, text=True, timeout=300,
    )


def test_server_refuses_to_start_in_production_mode_without_secret_key(tmp_path):
    proc = _start({"DEBUG": "0", "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/x",
                   "DATA_DIR": str(tmp_path)})
    assert proc.returncode != 0
    assert "SECRET_KEY is not set" in proc.stderr


def test_commands_run_without_debug_or_a_secret_in_the_embedded_setup(tmp_path):
    """The README's commands, as a new user types them: no variable set."""
    record = ROOT / "tests" / "golden" / "records" / "mso-complete.txt"
    proc = _start({"DATA_DIR": str(tmp_path)}, str(record), command="verify_log")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "secret-key.txt").exists()


def test_bench_standings_runs_as_the_readme_lists_it(tmp_path):
    """No DEBUG, no collectstatic: the pages it measures are asked for on a host the settings
    accept, with plain static names (it stopped with a bare AssertionError before)."""
    assert _start({"DATA_DIR": str(tmp_path)}, "--noinput", command="migrate").returncode == 0
    proc = _start({"DATA_DIR": str(tmp_path)}, "--players", "8", "--rounds", "1", "--repeat",
                  "1", command="bench_standings")
    assert proc.returncode == 0, proc.stderr
    assert "event_standings: median" in proc.stdout and "event_crosstable" in proc.stdout


def test_a_command_on_a_database_never_migrated_says_what_to_do(tmp_path):
    proc = _start({"DATA_DIR": str(tmp_path)}, "x", "standings", "-o", str(tmp_path / "x.pdf"),
                  command="export_pdf")
    assert proc.returncode != 0
    assert "python manage.py migrate" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_server_starts_in_production_mode_with_secret_key():
    proc = _start({"DEBUG": "0", "SECRET_KEY": "a-long-random-secret-for-the-test"})
    assert proc.returncode == 0, proc.stderr


def test_active_settings_follow_the_environment():
    from django.conf import settings

    expected_engine = (
        "django.db.backends.postgresql"
        if os.environ.get("DATABASE_URL", "").startswith("postgres")
        else "django.db.backends.sqlite3"
    )
    assert settings.DATABASES["default"]["ENGINE"] == expected_engine
    expected_layer = (
        "channels_redis.pubsub.RedisPubSubChannelLayer"
        if os.environ.get("REDIS_URL")
        else "channels.layers.InMemoryChannelLayer"
    )
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == expected_layer
