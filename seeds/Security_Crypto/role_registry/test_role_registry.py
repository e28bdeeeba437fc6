import pytest

from role_registry import RoleRegistry


@pytest.fixture
def rbac():
    registry = RoleRegistry()
    registry.add_role("viewer")
    registry.add_role("editor", ["viewer"])
    registry.add_role("auditor")
    registry.add_role("admin", ["editor", "auditor"])
    registry.grant("viewer", "docs:read")
    registry.grant("editor", "docs:write")
    registry.grant("auditor", "logs:read")
    registry.grant("admin", "users:*")
    return registry


def test_check_permission_accepts_valid_forms():
    assert RoleRegistry._check_permission("docs:read") is None
    assert RoleRegistry._check_permission("docs:*") is None
    assert RoleRegistry._check_permission("*") is None


@pytest.mark.parametrize("bad", ["docs", ":read", "docs:", "a:b:c", ""])
def test_check_permission_rejects_malformed(bad):
    with pytest.raises(ValueError):
        RoleRegistry._check_permission(bad)


def test_add_role_returns_lineage():
    registry = RoleRegistry()
    assert registry.add_role("base") == ["base"]
    assert registry.add_role("mid", ["base"]) == ["base", "mid"]
    assert registry.add_role("top", ["mid"]) == ["base", "mid", "top"]


def test_add_role_duplicate_raises(rbac):
    with pytest.raises(ValueError):
        rbac.add_role("viewer")


def test_add_role_empty_name_raises():
    with pytest.raises(ValueError):
        RoleRegistry().add_role("")


def test_add_role_unknown_parent_raises():
    registry = RoleRegistry()
    with pytest.raises(KeyError):
        registry.add_role("child", ["ghost"])
    with pytest.raises(KeyError):
        registry.assign("ada", "child")


def test_lineage_diamond_is_deduplicated(rbac):
    rbac.add_role("superuser", ["admin", "viewer"])
    assert rbac._lineage("superuser") == ["admin", "auditor", "editor", "superuser", "viewer"]


def test_grant_new_and_repeated(rbac):
    assert rbac.grant("viewer", "wiki:read") is True
    assert rbac.grant("viewer", "wiki:read") is False


def test_grant_unknown_role_raises(rbac):
    with pytest.raises(KeyError):
        rbac.grant("ghost", "docs:read")


def test_grant_malformed_permission_raises(rbac):
    with pytest.raises(ValueError):
        rbac.grant("viewer", "docs")


def test_revoke_direct_permission(rbac):
    assert rbac.revoke("editor", "docs:write") is True
    assert rbac.revoke("editor", "docs:write") is False


def test_revoke_inherited_permission_is_noop(rbac):
    rbac.assign("ada", "editor")
    assert rbac.revoke("editor", "docs:read") is False
    assert rbac.is_allowed("ada", "docs:read") is True


def test_revoke_unknown_role_raises(rbac):
    with pytest.raises(KeyError):
        rbac.revoke("ghost", "docs:read")


def test_assign_returns_sorted_roles(rbac):
    assert rbac.assign("ada", "viewer") == ["viewer"]
    assert rbac.assign("ada", "auditor") == ["auditor", "viewer"]
    assert rbac.assign("ada", "viewer") == ["auditor", "viewer"]


def test_assign_unknown_role_raises(rbac):
    with pytest.raises(KeyError):
        rbac.assign("ada", "ghost")


def test_unassign(rbac):
    rbac.assign("ada", "viewer")
    assert rbac.unassign("ada", "viewer") is True
    assert rbac.unassign("ada", "viewer") is False
    assert rbac.effective_permissions("ada") == []


def test_unassign_unknown_user(rbac):
    assert rbac.unassign("nobody", "viewer") is False


def test_effective_permissions_include_inherited(rbac):
    rbac.assign("ada", "admin")
    assert rbac.effective_permissions("ada") == ["docs:read", "docs:write", "logs:read", "users:*"]


def test_effective_permissions_unknown_user(rbac):
    assert rbac.effective_permissions("nobody") == []


def test_is_allowed_direct_and_inherited(rbac):
    rbac.assign("ada", "editor")
    assert rbac.is_allowed("ada", "docs:write") is True
    assert rbac.is_allowed("ada", "docs:read") is True
    assert rbac.is_allowed("ada", "logs:read") is False


def test_is_allowed_resource_wildcard(rbac):
    rbac.assign("bob", "admin")
    assert rbac.is_allowed("bob", "users:delete") is True
    assert rbac.is_allowed("bob", "billing:read") is False


def test_is_allowed_global_wildcard(rbac):
    rbac.add_role("root")
    rbac.grant("root", "*")
    rbac.assign("eve", "root")
    assert rbac.is_allowed("eve", "anything:goes") is True


def test_is_allowed_rejects_malformed_request(rbac):
    with pytest.raises(ValueError):
        rbac.is_allowed("ada", "docs")


def test_explain_lists_granting_roles(rbac):
    rbac.assign("ada", "admin")
    assert rbac.explain("ada", "docs:read") == ["viewer"]
    assert rbac.explain("ada", "users:create") == ["admin"]
    assert rbac.explain("ada", "billing:read") == []


def test_explain_multiple_sources(rbac):
    rbac.grant("auditor", "docs:*")
    rbac.assign("ada", "editor")
    rbac.assign("ada", "auditor")
    assert rbac.explain("ada", "docs:read") == ["auditor", "viewer"]


def test_remove_role_counts_affected_users(rbac):
    rbac.assign("ada", "admin")
    rbac.assign("bob", "admin")
    rbac.assign("cid", "viewer")
    assert rbac.remove_role("admin") == 2
    assert rbac.effective_permissions("ada") == []
    assert rbac.effective_permissions("cid") == ["docs:read"]


def test_remove_role_with_children_raises(rbac):
    rbac.add_role("reviewer", ["viewer"])
    with pytest.raises(ValueError, match="editor, reviewer"):
        rbac.remove_role("viewer")
    rbac.assign("ada", "reviewer")
    assert rbac.is_allowed("ada", "docs:read") is True


def test_scenario_revoke_then_remove_and_re_add(rbac):
    rbac.revoke("auditor", "logs:read")
    rbac.remove_role("admin")
    assert rbac.remove_role("auditor") == 0
    assert rbac.add_role("auditor") == ["auditor"]
    rbac.assign("ada", "auditor")
    assert rbac.effective_permissions("ada") == []


def test_remove_role_unknown_raises(rbac):
    with pytest.raises(KeyError):
        rbac.remove_role("ghost")


def test_scenario_removed_role_can_be_recreated_empty(rbac):
    rbac.assign("ada", "admin")
    rbac.remove_role("admin")
    assert rbac.add_role("admin") == ["admin"]
    assert rbac.grant("admin", "billing:read") is True
    assert rbac.assign("ada", "admin") == ["admin"]
    assert rbac.is_allowed("ada", "users:create") is False
    assert rbac.explain("ada", "billing:read") == ["admin"]
    assert rbac.revoke("admin", "billing:read") is True
    assert rbac.unassign("ada", "admin") is True


def test_scenario_revoke_then_grant_changes_decisions(rbac):
    rbac.assign("ada", "editor")
    rbac.revoke("viewer", "docs:read")
    assert rbac.is_allowed("ada", "docs:read") is False
    assert rbac.explain("ada", "docs:read") == []
    rbac.grant("viewer", "docs:read")
    assert rbac.effective_permissions("ada") == ["docs:read", "docs:write"]
    assert rbac.explain("ada", "docs:read") == ["viewer"]
    rbac.revoke("viewer", "docs:read")
    assert rbac.effective_permissions("ada") == ["docs:write"]


def test_scenario_unassign_then_remove_role(rbac):
    rbac.assign("ada", "auditor")
    rbac.assign("bob", "auditor")
    rbac.unassign("ada", "auditor")
    rbac.remove_role("admin")
    assert rbac.remove_role("auditor") == 1
    assert rbac.unassign("bob", "auditor") is False
    with pytest.raises(KeyError):
        rbac.grant("auditor", "logs:read")
    with pytest.raises(KeyError):
        rbac.revoke("auditor", "logs:read")
    assert rbac.assign("bob", "viewer") == ["viewer"]
    assert rbac.is_allowed("bob", "docs:read") is True


def test_scenario_add_role_after_grants_inherits_them(rbac):
    rbac.assign("ada", "viewer")
    rbac.add_role("intern", ["viewer"])
    rbac.unassign("ada", "viewer")
    rbac.assign("ada", "intern")
    assert rbac.effective_permissions("ada") == ["docs:read"]
    assert rbac.explain("ada", "docs:read") == ["viewer"]
    assert rbac.is_allowed("ada", "docs:write") is False


def test_explain_global_wildcard(rbac):
    rbac.add_role("root")
    rbac.grant("root", "*")
    rbac.assign("eve", "root")
    rbac.assign("eve", "viewer")
    assert rbac.explain("eve", "docs:read") == ["root", "viewer"]
    assert rbac.explain("eve", "billing:refund") == ["root"]
