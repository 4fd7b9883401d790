//! Unit tests of the config's limits: board sizes, `draw_after_moves`, engine paths and
//! memory.

use super::*;

const ENGINES: &str =
    "[[engine]]\nname = \"a\"\ncommand = \"sh\"\n[[engine]]\nname = \"b\"\ncommand = \"sh\"\n";

fn load(head: &str, engines: &str) -> Result<Config, String> {
    Config::from_toml(
        &format!("[tournament]\ntimeout_turn_ms = 1\n{head}{engines}"),
        &std::env::temp_dir(),
    )
}

#[test]
fn draw_after_zero_moves_is_refused() {
    let err = load("draw_after_moves = 0\n", ENGINES).err();
    let err = err.unwrap_or_default();
    assert!(err.contains("draw_after_moves"), "{err:?}");
    // One stone is a real game; an opening as long as the limit is not.
    assert!(load("draw_after_moves = 1\n", ENGINES).is_ok());
}

#[test]
fn boards_up_to_32_load() {
    for size in [5, 26, 27, 32] {
        let c = load(&format!("board_size = {size}\n"), ENGINES);
        let c = c.unwrap_or_else(|e| panic!("{size}: {e}"));
        assert_eq!(c.settings.board_size, size);
        assert_eq!(c.settings.draw_after_moves, size * size);
    }
    for size in [4, 33] {
        let err = load(&format!("board_size = {size}\n"), ENGINES).err();
        assert!(err.unwrap_or_default().contains("5..=32"), "{size}");
    }
}

#[test]
fn bare_names_are_resolved_on_path_at_load() {
    let c = load("", ENGINES).unwrap_or_else(|e| panic!("{e}"));
    let sh = &c.engines[0].command;
    assert!(sh.is_absolute(), "{}", sh.display());
    assert_eq!(sh.file_name().and_then(|n| n.to_str()), Some("sh"));
    let missing = "[[engine]]\nname = \"a\"\ncommand = \"pbrain-does-not-exist\"\n[[engine]]\nname = \"b\"\ncommand = \"sh\"\n";
    let err = load("", missing).err().unwrap_or_default();
    assert!(
        err.contains("pbrain-does-not-exist") && err.contains("PATH"),
        "{err:?}"
    );
    // A path to a file that cannot be run is refused too.
    let dir = std::env::temp_dir().join(format!("wuzi-cfg-noexec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.join("engine.txt"), "not a program").unwrap_or_else(|e| panic!("{e}"));
    let text = "[tournament]\ntimeout_turn_ms = 1\n[[engine]]\nname = \"a\"\ncommand = \"./engine.txt\"\n[[engine]]\nname = \"b\"\ncommand = \"sh\"\n";
    let err = Config::from_toml(text, &dir).err().unwrap_or_default();
    assert!(err.contains("not executable"), "{err:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn memory_limit_defaults_to_max_memory() {
    let c = load("max_memory = 1000000\n", ENGINES).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.settings.memory_limit, 1_000_000);
    let c = load("max_memory = 1000000\nmemory_limit = 0\n", ENGINES);
    assert_eq!(c.map(|c| c.settings.memory_limit), Ok(0));
}
