//! The referee's renju detector against the engine's (`src/board/renju.rs`, compiled into this test
//! only; the referee itself never uses engine code) on thousands of seeded random positions:
//! every empty cell must get the same verdict from both. The fixture file holds the cases
//! whose answers were worked out by hand; this catches what the fixtures did not foresee.
//!
//! If the engine's file moves, update the `#[path]` below.

#[path = "../../src/board/renju.rs"]
#[allow(dead_code)]
mod engine;

use wuzi_tournament::board::Side;
use wuzi_tournament::renju::{foul_at, Foul};

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn same(a: Option<engine::Foul>, b: Option<Foul>) -> bool {
    matches!(
        (a, b),
        (None, None)
            | (Some(engine::Foul::DoubleThree), Some(Foul::DoubleThree))
            | (Some(engine::Foul::DoubleFour), Some(Foul::DoubleFour))
            | (Some(engine::Foul::Overline), Some(Foul::Overline))
    )
}

#[test]
fn engine_and_referee_agree_on_random_positions() {
    const SIZE: usize = 15;
    let mut rng = 11u64;
    let (mut checked, mut fouls) = (0usize, [0usize; 3]);
    for round in 0..1500 {
        // Stones in a window around the centre: dense black, sparser white, so that threes
        // and fours (and their recursion) are common.
        let mut cells = [[None::<Side>; SIZE]; SIZE];
        let span = 7 + (round % 3) as usize * 2;
        let lo = (SIZE - span) / 2;
        let black = 8 + splitmix(&mut rng) % 14;
        let white = splitmix(&mut rng) % 10;
        for (count, side) in [(black, Side::Black), (white, Side::White)] {
            for _ in 0..count {
                let x = lo + (splitmix(&mut rng) % span as u64) as usize;
                let y = lo + (splitmix(&mut rng) % span as u64) as usize;
                cells[y][x].get_or_insert(side);
            }
        }
        let mut grid = engine::Grid::new(SIZE);
        for (y, row) in cells.iter().enumerate() {
            for (x, c) in row.iter().enumerate() {
                let cell = match c {
                    Some(Side::Black) => engine::Cell::Black,
                    Some(Side::White) => engine::Cell::White,
                    None => engine::Cell::Empty,
                };
                engine::RenjuBoard::set(&mut grid, x, y, cell);
            }
        }
        for y in lo.saturating_sub(1)..(lo + span + 1).min(SIZE) {
            for x in lo.saturating_sub(1)..(lo + span + 1).min(SIZE) {
                if cells[y][x].is_some() {
                    continue;
                }
                let mine = engine::forbidden(&mut grid, x, y);
                let theirs = foul_at(SIZE, |cx, cy| cells[cy][cx], x, y);
                assert!(
                    same(mine, theirs),
                    "round {round}, cell {x},{y}: engine {mine:?}, referee {theirs:?}\n{}",
                    diagram(&cells, (x, y))
                );
                checked += 1;
                if let Some(f) = theirs {
                    fouls[f as usize] += 1;
                }
            }
        }
    }
    // The positions must actually exercise every kind, or the agreement proves little.
    assert!(checked > 50_000, "{checked}");
    assert!(fouls.iter().all(|&n| n > 50), "{fouls:?}");
}

fn diagram(cells: &[[Option<Side>; 15]; 15], q: (usize, usize)) -> String {
    let mut s = String::new();
    for (y, row) in cells.iter().enumerate() {
        for (x, c) in row.iter().enumerate() {
            s.push(match c {
                _ if (x, y) == q => '?',
                Some(Side::Black) => 'X',
                Some(Side::White) => 'O',
                None => '.',
            });
        }
        s.push('\n');
    }
    s
}
