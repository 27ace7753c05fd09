"""The clinic console's admin pages show the server settings an operator needs to know about."""

from __future__ import annotations

from clinic_http import ConsoleClient
from conftest import own_server


def test_the_admin_page_shows_whether_self_service_practices_are_on(server):
    admin = ConsoleClient(server.base)
    admin.sign_in("admin", "admin123")
    status, _, page = admin.request("GET", "/clinic/admin/practices")
    assert status == 200
    section = page[page.index('id="self-service-practices"'):]
    assert "Self-service practices" in section and ">Off<" in section
    assert "HELPPET_SELF_SERVICE_PRACTICES=true" in section
    with own_server(server, "self_service", HELPPET_SELF_SERVICE_PRACTICES="true") as base:
        admin = ConsoleClient(base)
        admin.sign_in("admin", "admin123")
        _, _, page = admin.request("GET", "/clinic/admin/practices")
        section = page[page.index('id="self-service-practices"'):]
        assert ">On<" in section and "HELPPET_SELF_SERVICE_PRACTICES=false" in section
