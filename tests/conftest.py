import importlib, ipaddress
import pytest

@pytest.fixture(autouse=True)
def public_dns(monkeypatch):
    "Tests have no network: every name the mock web serves resolves to a public address (IP literals are judged as they are)"
    fm = importlib.import_module('msgkit.download')
    monkeypatch.setattr(fm, '_lookup', lambda host: [ipaddress.ip_address('93.184.215.14')])
