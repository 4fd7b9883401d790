//! Unit tests of config loading: defaults, the renju draw limit and refused files.

use super::*;

fn base() -> PathBuf {
    std::env::temp_dir()
}

#[test]
fn minimal_config_gets_defaults() {
    let text = r#"
        [tournament]
        timeout_turn_ms = 100
        [[engine]]
        name = "a"
        command = "sh"
        [[engine]]
        name = "b"
        command = "sh"
        args = ["-c", "true"]
    "#;
    let c = Config::from_toml(text, &base());
    let c = c.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.settings.board_size, 20);
    assert_eq!(c.settings.draw_after_moves, 400);
    assert_eq!(c.settings.games_per_pair, 2);
    assert_eq!(c.settings.max_memory, 367_001_600);
    assert_eq!(c.openings.len(), 1);
    assert_eq!(c.engines[1].args, ["-c", "true"]);
    assert_eq!(c.engines[0].workdir, base());
}

#[test]
fn renju_draws_at_200_stones_unless_told() {
    let engines =
        "[[engine]]\nname = \"a\"\ncommand = \"sh\"\n[[engine]]\nname = \"b\"\ncommand = \"sh\"\n";
    let load = |head: &str| {
        Config::from_toml(&format!("[tournament]\n{head}{engines}"), &base())
            .unwrap_or_else(|e| panic!("{head}: {e}"))
    };
    let c = load("timeout_turn_ms = 1\nboard_size = 15\nrule = 4\n");
    assert!(c.settings.rule.renju);
    assert_eq!(c.settings.draw_after_moves, 200);
    let c = load("timeout_turn_ms = 1\nboard_size = 15\nrule = 4\ndraw_after_moves = 225\n");
    assert_eq!(c.settings.draw_after_moves, 225);
    let c = load("timeout_turn_ms = 1\nboard_size = 10\nrule = 4\n");
    assert_eq!(c.settings.draw_after_moves, 100);
    let c = load("timeout_turn_ms = 1\nboard_size = 15\n");
    assert_eq!(c.settings.draw_after_moves, 225);
}

#[test]
fn bad_configs_are_refused() {
    let engines =
        "[[engine]]\nname = \"a\"\ncommand = \"sh\"\n[[engine]]\nname = \"b\"\ncommand = \"sh\"\n";
    let cases = [
        "[tournament]\ntimeout_turn_ms = 1\nrule = 12\n",
        "[tournament]\ntimeout_turn_ms = 1\nboard_size = 40\n",
        "[tournament]\ntimeout_turn_ms = 1\nbogus = 1\n",
        "[tournament]\n",
    ];
    for head in cases {
        assert!(
            Config::from_toml(&format!("{head}{engines}"), &base()).is_err(),
            "{head}"
        );
    }
    let dup = "[tournament]\ntimeout_turn_ms = 1\n[[engine]]\nname = \"a\"\ncommand = \"sh\"\n[[engine]]\nname = \"a\"\ncommand = \"sh\"\n";
    assert!(Config::from_toml(dup, &base()).is_err());
    let missing = "[tournament]\ntimeout_turn_ms = 1\n[[engine]]\nname = \"a\"\ncommand = \"./no-such-engine\"\n[[engine]]\nname = \"b\"\ncommand = \"sh\"\n";
    assert!(Config::from_toml(missing, &base()).is_err());
}
