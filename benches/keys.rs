//! Incremental Zobrist update vs full recomputation on a 20x20 board holding 100 stones.
//!
//! Three figures: `play_undo` is a real move and take-back (both key words XORed in and
//! out, plus the board's pattern upkeep along four lines), `xor_update` is the key part
//! alone (both words of one stone XORed in and out), and `compute_key` rebuilds both words
//! from every cell. The README's ratio compares `compute_key` with `xor_update` (and also
//! states it against `play_undo`).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use std::time::Duration;
use wuzi::board::zobrist::tables;
use wuzi::{Board, Color, Pos, Rule};

/// A reproducible 100-stone position: cells drawn by an LCG, alternating colours.
fn board_with_100_stones() -> Board {
    let mut b = Board::new(20, Rule::FREESTYLE).expect("20 is a valid size");
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    while b.move_count() < 100 {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let cell = (state >> 33) as usize % 400;
        let p = Pos::new(cell % 20, cell / 20);
        if b.is_empty(p) {
            b.play(p);
        }
    }
    b
}

fn keys(c: &mut Criterion) {
    let mut board = board_with_100_stones();
    let empties: Vec<Pos> = (0..400)
        .map(|i| Pos::new(i % 20, i / 20))
        .filter(|&p| board.is_empty(p))
        .collect();
    let mut g = c.benchmark_group("keys_20x20_100_stones");
    g.warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);

    let mut i = 0;
    g.bench_function("play_undo", |b| {
        b.iter(|| {
            let p = empties[i % empties.len()];
            i += 1;
            board.play(black_box(p));
            let k = board.key();
            let _ = board.undo();
            k
        })
    });

    let z = tables();
    let mut key = board.key();
    // A power-of-two ring of the empty cells, so picking one costs a mask, not a division.
    let ring: Vec<Pos> = empties.iter().copied().cycle().take(256).collect();
    let mut i = 0;
    g.bench_function("xor_update", |b| {
        b.iter(|| {
            let p = ring[i & 255];
            i += 1;
            let stone = z.stone(black_box(p), Color::Black);
            key.toggle(stone);
            key.toggle(z.side());
            let inside = black_box(key);
            key.toggle(stone);
            key.toggle(z.side());
            inside
        })
    });

    g.bench_function("compute_key", |b| {
        b.iter(|| black_box(&board).compute_key())
    });
    g.finish();
}

criterion_group!(benches, keys);
criterion_main!(benches);
