import pytest

from command_line_parser import CommandLineParser


@pytest.fixture
def cli():
    parser = CommandLineParser("sync")
    parser.add_flag("verbose", short="v")
    parser.add_flag("dry_run", short="n")
    parser.add_option("jobs", value_type="int", default=1, short="j")
    parser.add_option("ratio", value_type="float", default=0.5)
    parser.add_option("mode", choices=["fast", "safe"], default="safe", short="m")
    parser.add_positional("source")
    parser.add_positional("target")
    return parser


def test_declare_registers_spec_and_short():
    parser = CommandLineParser("p")
    parser._declare("color", "c", {"kind": "flag", "default": False})
    assert parser.parse(["-c"]) == {"color": True}


def test_declare_rejects_bad_name():
    with pytest.raises(ValueError):
        CommandLineParser("p")._declare("two words", "", {"kind": "flag", "default": False})


def test_add_flag_duplicate_name_raises(cli):
    with pytest.raises(ValueError):
        cli.add_flag("verbose")


def test_add_flag_duplicate_short_raises(cli):
    with pytest.raises(ValueError):
        cli.add_flag("version", short="v")


def test_add_flag_bad_short_raises():
    with pytest.raises(ValueError):
        CommandLineParser("p").add_flag("quiet", short="qq")


def test_add_option_unknown_type_raises():
    with pytest.raises(ValueError, match="unknown type"):
        CommandLineParser("p").add_option("when", value_type="date")


def test_add_option_name_clash_with_positional(cli):
    with pytest.raises(ValueError):
        cli.add_option("source")


def test_add_positional_counts(cli):
    assert cli.add_positional("extra") == 3


def test_add_positional_duplicate_raises(cli):
    with pytest.raises(ValueError):
        cli.add_positional("jobs")
    with pytest.raises(ValueError):
        cli.add_positional("source")


def test_defaults(cli):
    assert cli.defaults() == {"dry_run": False, "jobs": 1, "mode": "safe", "ratio": 0.5, "verbose": False}


def test_defaults_exclude_required():
    parser = CommandLineParser("p")
    parser.add_option("token", required=True, default="ignored")
    parser.add_option("region", default="eu")
    assert parser.defaults() == {"region": "eu"}


def test_convert_int_and_float(cli):
    assert cli._convert("jobs", "8") == 8
    assert cli._convert("ratio", "1.5") == 1.5


def test_convert_bad_number_raises(cli):
    with pytest.raises(ValueError):
        cli._convert("jobs", "eight")


def test_convert_rejects_value_outside_choices(cli):
    with pytest.raises(ValueError, match="fast, safe"):
        cli._convert("mode", "reckless")


def test_parse_only_positionals_uses_defaults(cli):
    assert cli.parse(["a/", "b/"]) == {"dry_run": False, "jobs": 1, "mode": "safe", "ratio": 0.5,
                                       "source": "a/", "target": "b/", "verbose": False}


def test_parse_long_option_forms(cli):
    result = cli.parse(["--jobs", "4", "--ratio=0.75", "a", "b"])
    assert result["jobs"] == 4
    assert result["ratio"] == 0.75


def test_parse_short_option_and_bundled_flags(cli):
    result = cli.parse(["-vnj", "3", "a", "b"])
    assert (result["verbose"], result["dry_run"], result["jobs"]) == (True, True, 3)


def test_parse_dashed_long_name_and_negation(cli):
    assert cli.parse(["--dry-run", "a", "b"])["dry_run"] is True
    assert cli.parse(["-v", "--no-verbose", "a", "b"])["verbose"] is False


def test_parse_last_option_wins(cli):
    assert cli.parse(["-j", "2", "--jobs", "5", "a", "b"])["jobs"] == 5


def test_parse_double_dash_ends_options(cli):
    result = cli.parse(["--", "-v", "--jobs"])
    assert result["source"] == "-v"
    assert result["target"] == "--jobs"
    assert result["verbose"] is False


def test_parse_negative_number_as_value(cli):
    assert cli.parse(["--ratio", "-1.5", "a", "b"])["ratio"] == -1.5


def test_parse_unknown_long_option(cli):
    with pytest.raises(ValueError, match="unknown option --color"):
        cli.parse(["--color", "a", "b"])


def test_parse_unknown_short_option(cli):
    with pytest.raises(ValueError, match="unknown option -x"):
        cli.parse(["-x", "a", "b"])


def test_parse_flag_with_value_raises(cli):
    with pytest.raises(ValueError):
        cli.parse(["--verbose=yes", "a", "b"])


def test_parse_missing_value_at_end(cli):
    with pytest.raises(ValueError):
        cli.parse(["a", "b", "--jobs"])


def test_parse_option_needing_value_inside_bundle(cli):
    with pytest.raises(ValueError):
        cli.parse(["-jv", "2", "a", "b"])


def test_parse_bad_choice(cli):
    with pytest.raises(ValueError):
        cli.parse(["-m", "turbo", "a", "b"])


def test_parse_wrong_positional_count(cli):
    with pytest.raises(ValueError):
        cli.parse(["a"])
    with pytest.raises(ValueError):
        cli.parse(["a", "b", "c"])


def test_parse_missing_required_options():
    parser = CommandLineParser("deploy")
    parser.add_option("token", required=True)
    parser.add_option("env", required=True, short="e")
    with pytest.raises(ValueError, match="--env, --token"):
        parser.parse([])


def test_parse_does_not_mutate_argv(cli):
    argv = ["-v", "a", "b"]
    cli.parse(argv)
    assert argv == ["-v", "a", "b"]


def test_usage(cli):
    assert cli.usage() == "usage: sync [-v] [-n] [-j JOBS] [--ratio RATIO] [-m MODE] source target"


def test_usage_required_option_without_brackets():
    parser = CommandLineParser("deploy")
    parser.add_option("api_token", required=True)
    parser.add_flag("force")
    assert parser.usage() == "usage: deploy --api-token API_TOKEN [--force]"


def test_usage_of_empty_parser():
    assert CommandLineParser("noop").usage() == "usage: noop"


def test_scenario_incremental_declaration():
    parser = CommandLineParser("tool")
    assert parser.usage() == "usage: tool"
    assert parser.parse([]) == {}
    parser.add_positional("path")
    parser.add_flag("all", short="a")
    assert parser.defaults() == {"all": False}
    parser.add_option("depth", value_type="int", default=2)
    assert parser.usage() == "usage: tool [-a] [--depth DEPTH] path"
    assert parser.parse(["-a", "--depth", "7", "."]) == {"all": True, "depth": 7, "path": "."}
    with pytest.raises(ValueError):
        parser.add_flag("depth")
    assert parser.defaults() == {"all": False, "depth": 2}


def test_scenario_option_then_positional_then_parse():
    parser = CommandLineParser("grep")
    parser.add_option("max_count", value_type="int", short="m")
    assert parser.add_positional("pattern") == 1
    parser.add_flag("ignore_case", short="i")
    assert parser.parse(["-i", "-m", "3", "err"]) == {"ignore_case": True, "max_count": 3, "pattern": "err"}
    assert parser.defaults() == {"ignore_case": False, "max_count": None}
    assert parser.usage() == "usage: grep [-m MAX_COUNT] [-i] pattern"


def test_parse_accepts_required_option_when_given():
    parser = CommandLineParser("deploy")
    parser.add_option("token", required=True)
    parser.add_option("env", required=True, short="e", choices=["prod", "test"])
    assert parser.parse(["-e", "test", "--token=abc"]) == {"env": "test", "token": "abc"}
    with pytest.raises(ValueError, match="--token"):
        parser.parse(["-e", "prod"])
