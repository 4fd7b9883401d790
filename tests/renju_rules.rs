//! The engine's renju checker (`src/board/renju.rs`) against every
//! hand-made position of `tests/fixtures/renju/forbidden.txt`, plus its edge cases.

#[path = "../src/board/renju.rs"]
#[allow(dead_code)]
mod renju;

use renju::{forbid_reply, forbidden, forbidden_points, Cell, Foul, Grid, RenjuBoard};

const FIXTURE: &str = include_str!("fixtures/renju/forbidden.txt");

/// One parsed fixture case.
struct Case {
    name: String,
    grid: Grid,
    at: (usize, usize),
    expect: Option<Foul>,
    five: bool,
}

fn parse_pair(text: &str) -> Result<(usize, usize), String> {
    let (a, b) = text
        .split_once(',')
        .ok_or_else(|| format!("{text:?} is not x,y"))?;
    let a = a
        .trim()
        .parse()
        .map_err(|_| format!("bad number in {text:?}"))?;
    let b = b
        .trim()
        .parse()
        .map_err(|_| format!("bad number in {text:?}"))?;
    Ok((a, b))
}

/// A case whose board is still to come: name, size, offset, verdict, five.
struct Pending {
    name: String,
    size: usize,
    offset: (usize, usize),
    expect: Option<Option<Foul>>,
    five: bool,
}

fn parse_fixture(text: &str) -> Result<Vec<Case>, String> {
    let mut cases = Vec::new();
    let mut lines = text.lines().enumerate();
    let mut current: Option<Pending> = None;
    while let Some((no, raw)) = lines.next() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line
            .split_once(':')
            .map(|(k, v)| (k.trim(), v.trim()))
            .ok_or_else(|| format!("line {}: expected `key: value`", no + 1))?;
        if key == "case" {
            if current.is_some() {
                return Err(format!("line {}: previous case has no board", no + 1));
            }
            current = Some(Pending {
                name: value.to_string(),
                size: 15,
                offset: (0, 0),
                expect: None,
                five: false,
            });
            continue;
        }
        let Some(case) = current.as_mut() else {
            return Err(format!("line {}: {key} outside a case", no + 1));
        };
        match key {
            "note" => {}
            "size" => case.size = value.parse().map_err(|_| format!("line {}", no + 1))?,
            "at" => case.offset = parse_pair(value)?,
            "expect" => {
                case.expect = Some(match value {
                    "none" => None,
                    other => Some(
                        Foul::from_name(other)
                            .ok_or_else(|| format!("line {}: verdict {other:?}", no + 1))?,
                    ),
                })
            }
            "five" => case.five = value == "yes",
            "board" => {
                let Pending {
                    name,
                    size,
                    offset,
                    expect,
                    five,
                } = current
                    .take()
                    .ok_or_else(|| format!("line {}: board outside a case", no + 1))?;
                let expect = expect.ok_or_else(|| format!("{name}: no expect"))?;
                let mut grid = Grid::new(size);
                let mut query = None;
                let mut row = 0;
                loop {
                    let (no, raw) = lines
                        .next()
                        .ok_or_else(|| format!("{name}: board without end"))?;
                    let line = raw.trim();
                    if line == "end" {
                        break;
                    }
                    for (col, ch) in line.chars().enumerate() {
                        let (x, y) = (offset.0 + col, offset.1 + row);
                        if x >= size || y >= size {
                            return Err(format!("line {}: {name} leaves the board", no + 1));
                        }
                        match ch {
                            'X' => grid.set(x, y, Cell::Black),
                            'O' => grid.set(x, y, Cell::White),
                            '.' => {}
                            '?' if query.is_none() => query = Some((x, y)),
                            _ => return Err(format!("line {}: {name}: {ch:?}", no + 1)),
                        }
                    }
                    row += 1;
                }
                let at = query.ok_or_else(|| format!("{name}: no `?` cell"))?;
                cases.push(Case {
                    name,
                    grid,
                    at,
                    expect,
                    five,
                });
            }
            _ => return Err(format!("line {}: unknown key {key:?}", no + 1)),
        }
    }
    if current.is_some() {
        return Err("the last case has no board".into());
    }
    Ok(cases)
}

fn cases() -> Vec<Case> {
    parse_fixture(FIXTURE).unwrap_or_else(|e| panic!("fixture: {e}"))
}

fn snapshot(g: &Grid) -> Vec<Cell> {
    let n = g.size();
    (0..n * n).map(|i| g.at(i % n, i / n)).collect()
}

/// Whether black at `(x, y)` makes exactly five (checked the slow, obvious way).
fn makes_five(g: &Grid, x: usize, y: usize) -> bool {
    let n = g.size() as isize;
    let black = |cx: isize, cy: isize| {
        cx >= 0 && cy >= 0 && cx < n && cy < n && g.at(cx as usize, cy as usize) == Cell::Black
    };
    [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
        let mut len = 1;
        for sign in [1, -1] {
            let mut k = 1;
            while black(x as isize + sign * k * dx, y as isize + sign * k * dy) {
                len += 1;
                k += 1;
            }
        }
        len == 5
    })
}

#[test]
fn fixture_is_large_and_names_are_unique() {
    let all = cases();
    assert!(all.len() >= 30, "only {} cases", all.len());
    let mut names: Vec<&str> = all.iter().map(|c| c.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), all.len(), "duplicate case names");
    for kind in [
        Some(Foul::DoubleThree),
        Some(Foul::DoubleFour),
        Some(Foul::Overline),
        None,
    ] {
        assert!(all.iter().any(|c| c.expect == kind), "no case for {kind:?}");
    }
}

#[test]
fn every_fixture_case_gets_its_verdict() {
    let mut wrong = Vec::new();
    for mut case in cases() {
        let (x, y) = case.at;
        assert_eq!(case.grid.at(x, y), Cell::Empty, "{}", case.name);
        assert_eq!(
            makes_five(&case.grid, x, y),
            case.five,
            "{}: the `five` line disagrees with the diagram",
            case.name
        );
        let before = snapshot(&case.grid);
        let got = forbidden(&mut case.grid, x, y);
        assert_eq!(
            snapshot(&case.grid),
            before,
            "{}: the board was not restored",
            case.name
        );
        if got != case.expect {
            wrong.push(format!(
                "{}: expected {:?}, got {:?}",
                case.name, case.expect, got
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn forbidden_points_list_the_queried_cell_exactly_when_forbidden() {
    for mut case in cases() {
        let before = snapshot(&case.grid);
        let points = forbidden_points(&mut case.grid);
        assert_eq!(snapshot(&case.grid), before, "{}", case.name);
        assert_eq!(
            points.contains(&case.at),
            case.expect.is_some(),
            "{}: {points:?}",
            case.name
        );
        let mut sorted = points.clone();
        sorted.sort_unstable_by_key(|&(x, y)| (y, x));
        assert_eq!(sorted, points, "{}: not in row order", case.name);
        // Every listed point is forbidden on its own, and no stone is listed.
        for &(px, py) in &points {
            assert_eq!(case.grid.at(px, py), Cell::Empty);
            assert!(forbidden(&mut case.grid, px, py).is_some(), "{}", case.name);
        }
    }
}

#[test]
fn occupied_and_off_board_cells_are_never_forbidden() {
    let mut g = Grid::new(15);
    for x in 2..8 {
        if x != 5 {
            g.set(x, 7, Cell::Black);
        }
    }
    assert_eq!(forbidden(&mut g, 5, 7), Some(Foul::Overline));
    g.set(5, 7, Cell::White);
    assert_eq!(forbidden(&mut g, 5, 7), None);
    assert_eq!(forbidden(&mut g, 15, 0), None);
    assert_eq!(forbidden(&mut g, 0, 99), None);
    assert!(forbidden_points(&mut Grid::new(15)).is_empty());
}

#[test]
fn yxshowforbid_reply_format() {
    assert_eq!(forbid_reply(&mut Grid::new(15)), "FORBID .");
    // f8 g8 and h6 h7 (black): only h8 (7,7), where the two lines cross, makes two threes.
    let mut g = Grid::new(15);
    for (x, y) in [(5, 7), (6, 7), (7, 5), (7, 6)] {
        g.set(x, y, Cell::Black);
    }
    assert_eq!(forbid_reply(&mut g), "FORBID 0707.");
    // Two overline points, listed row by row (y, then x), each coordinate on two digits.
    let mut g = Grid::new(15);
    let row12 = [(1, 12), (2, 12), (3, 12), (5, 12), (6, 12)];
    let row2 = [(9, 2), (10, 2), (11, 2), (13, 2), (14, 2)];
    for (x, y) in row12.into_iter().chain(row2) {
        g.set(x, y, Cell::Black);
    }
    assert_eq!(forbid_reply(&mut g), "FORBID 12020412.");
}

#[test]
fn foul_names_round_trip() {
    for f in [Foul::DoubleThree, Foul::DoubleFour, Foul::Overline] {
        assert_eq!(Foul::from_name(f.name()), Some(f));
    }
    assert_eq!(Foul::from_name("none"), None);
}

#[test]
fn white_stones_and_small_boards_are_handled() {
    // A 7×7 board: the vertical three touches both edges' reach; nothing panics near edges.
    let mut g = Grid::new(7);
    for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1), (6, 6), (5, 6), (6, 5)] {
        g.set(x, y, Cell::Black);
    }
    for y in 0..7 {
        for x in 0..7 {
            let _ = forbidden(&mut g, x, y);
        }
    }
    // Four in a row of white around the cell do not make black's move anything.
    let mut w = Grid::new(15);
    for x in [3, 4, 6, 7] {
        w.set(x, 5, Cell::White);
        w.set(5, x, Cell::White);
    }
    assert_eq!(forbidden(&mut w, 5, 5), None);
}

/// Cost per call, printed (not asserted: the machine is shared). Run with
/// `cargo test --release --test renju_rules -- --ignored --nocapture`.
#[test]
#[ignore]
fn cost_per_call() {
    use std::time::Instant;
    let mut grids: Vec<Grid> = cases().into_iter().map(|c| c.grid).collect();
    let (mut calls, mut hits) = (0u64, 0u64);
    let start = Instant::now();
    for _ in 0..200 {
        for g in grids.iter_mut() {
            let n = g.size();
            for y in 0..n {
                for x in 0..n {
                    calls += 1;
                    hits += u64::from(forbidden(g, x, y).is_some());
                }
            }
        }
    }
    let all = start.elapsed();
    // Only the cells next to stones, as a search would ask.
    let mut near = 0u64;
    let start = Instant::now();
    for _ in 0..200 {
        for g in grids.iter_mut() {
            let n = g.size();
            for y in 0..n {
                for x in 0..n {
                    let busy = (x.saturating_sub(1)..(x + 2).min(n)).any(|cx| {
                        (y.saturating_sub(1)..(y + 2).min(n)).any(|cy| g.at(cx, cy) != Cell::Empty)
                    });
                    if busy && g.at(x, y) == Cell::Empty {
                        near += 1;
                        let _ = forbidden(g, x, y);
                    }
                }
            }
        }
    }
    let near_time = start.elapsed();
    println!(
        "every cell: {calls} calls, {hits} forbidden, {:.1} ns/call; cells next to a stone: {near} calls, {:.1} ns/call",
        all.as_nanos() as f64 / calls as f64,
        near_time.as_nanos() as f64 / near as f64
    );
}

/// Prints each fixture position and `RENJU_DUMP_ROUNDS` (default 300) seeded random ones as
/// `name|x,y,c;…|FORBID …` lines (c: 1 black, 2 white), for comparing `forbid_reply` with
/// another engine's `YXSHOWFORBID` by hand. Run with `-- --ignored --nocapture`.
#[test]
#[ignore]
fn dump_positions_for_cross_checking() {
    let mut grids: Vec<(String, Grid)> = cases().into_iter().map(|c| (c.name, c.grid)).collect();
    let mut rng = 5u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let rounds: u32 = std::env::var("RENJU_DUMP_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    for round in 0..rounds {
        let mut g = Grid::new(15);
        let blacks = 10 + next() % 12;
        let whites = next() % 9;
        for (count, cell) in [(blacks, Cell::Black), (whites, Cell::White)] {
            for _ in 0..count {
                let (x, y) = (4 + (next() % 7) as usize, 4 + (next() % 7) as usize);
                if g.at(x, y) == Cell::Empty {
                    g.set(x, y, cell);
                }
            }
        }
        grids.push((format!("random-{round}"), g));
    }
    for (name, mut g) in grids {
        let n = g.size();
        let mut stones = Vec::new();
        for y in 0..n {
            for x in 0..n {
                match g.at(x, y) {
                    Cell::Black => stones.push(format!("{x},{y},1")),
                    Cell::White => stones.push(format!("{x},{y},2")),
                    Cell::Empty => {}
                }
            }
        }
        println!("{name}|{}|{}", stones.join(";"), forbid_reply(&mut g));
    }
}

/// The engine's board under renju with the stones of `grid`, black to move.
fn engine_board(grid: &Grid) -> wuzi::Board {
    let n = grid.size();
    let mut board = wuzi::Board::new(n, wuzi::Rule::RENJU).expect("a legal size");
    for y in 0..n {
        for x in 0..n {
            let color = match grid.at(x, y) {
                Cell::Black => wuzi::Color::Black,
                Cell::White => wuzi::Color::White,
                Cell::Empty => continue,
            };
            board.play_as(wuzi::Pos::new(x, y), color);
        }
    }
    board.set_side_to_move(wuzi::Color::Black);
    board
}

/// The engine asks the board, which skips the checker where the pattern classes rule a
/// foul out: it must still find every verdict and every forbidden point of the fixture.
#[test]
fn the_engine_board_finds_every_fixture_verdict_through_its_filter() {
    for mut case in cases() {
        let board = engine_board(&case.grid);
        let (x, y) = case.at;
        assert_eq!(
            board.is_forbidden(wuzi::Pos::new(x, y)),
            case.expect.is_some(),
            "{}",
            case.name
        );
        let engine: Vec<(usize, usize)> = board
            .forbidden_points()
            .iter()
            .map(|p| (p.x(), p.y()))
            .collect();
        assert_eq!(engine, forbidden_points(&mut case.grid), "{}", case.name);
    }
}

/// Random positions dense enough for fouls: the board's filtered answer equals the
/// checker's on every empty cell.
#[test]
fn the_engine_board_agrees_with_the_checker_on_random_positions() {
    let mut seed: u64 = 0x5eed_4e4a;
    let mut next = move |n: u64| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) % n
    };
    let mut fouls = 0;
    for _ in 0..300 {
        let mut grid = Grid::new(15);
        let stones = 10 + next(30) as usize;
        for _ in 0..stones {
            let (x, y) = (4 + next(7) as usize, 4 + next(7) as usize);
            if grid.at(x, y) == Cell::Empty {
                let c = if next(5) < 3 {
                    Cell::Black
                } else {
                    Cell::White
                };
                grid.set(x, y, c);
            }
        }
        let board = engine_board(&grid);
        for y in 0..15 {
            for x in 0..15 {
                if grid.at(x, y) != Cell::Empty {
                    continue;
                }
                let want = forbidden(&mut grid, x, y).is_some();
                fouls += want as usize;
                assert_eq!(
                    board.is_forbidden(wuzi::Pos::new(x, y)),
                    want,
                    "({x}, {y})\n{}",
                    board.to_diagram()
                );
            }
        }
    }
    assert!(
        fouls > 100,
        "only {fouls} forbidden cells: the positions are too sparse"
    );
}

/// A black double four on one line (`X.X?X.X`) is forbidden, so under renju it threatens
/// nothing: white to move need not defend it, as it must in freestyle.
#[test]
fn a_forbidden_double_four_is_no_threat_to_white() {
    let diagram = "
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
        ..X.X.X.X......
        ...............
        ...............
        ...............
        ..........O.O..
        ..........O....
        ...........O...
        ...............";
    use wuzi::threat::{node_kind, NodeKind};
    let free = wuzi::Board::from_diagram(diagram, wuzi::Rule::FREESTYLE, Some(wuzi::Color::White))
        .expect("diagram");
    let renju = wuzi::Board::from_diagram(diagram, wuzi::Rule::RENJU, Some(wuzi::Color::White))
        .expect("diagram");
    let gap = wuzi::Pos::new(5, 7);
    assert!(renju.is_forbidden(gap));
    assert_eq!(node_kind(&free), NodeKind::Defend);
    assert_eq!(node_kind(&renju), NodeKind::Quiet);
}

/// Black's three-three cell is a foul under renju: the evaluation does not count it as a
/// threat of black's, as it does in freestyle.
#[test]
fn a_forbidden_three_three_is_no_threat_in_the_evaluation() {
    let diagram = "
        ...............
        ...............
        ...............
        ...............
        ...............
        ........X......
        ........X......
        ......XX.......
        ...............
        ...............
        ...............
        .O.............
        ...............
        .O...........O.
        .............O.";
    let free = wuzi::Board::from_diagram(diagram, wuzi::Rule::FREESTYLE, Some(wuzi::Color::Black))
        .expect("diagram");
    let renju = wuzi::Board::from_diagram(diagram, wuzi::Rule::RENJU, Some(wuzi::Color::Black))
        .expect("diagram");
    let cell = wuzi::Pos::new(8, 7);
    assert!(renju.is_forbidden(cell));
    use wuzi::eval::pattern::Pattern4;
    assert_eq!(renju.p4(cell, wuzi::Color::Black), Pattern4::FFlex3x2);
    // What the evaluation adds to half the share difference: the threat terms.
    let threat = |b: &wuzi::Board| {
        let (black, white) = (b.value(wuzi::Color::Black), b.value(wuzi::Color::White));
        wuzi::eval::evaluate(b) - (black - white) / 2
    };
    assert!(
        threat(&renju) < threat(&free),
        "renju {} vs freestyle {}",
        threat(&renju),
        threat(&free)
    );
}
