//! Self-play: Wuzi against itself through the library's `Engine`, from random balanced
//! openings (a few random stones near the centre), at a fixed node count per move, with a
//! random one of the statically best moves now and then in the first plies. Every game
//! follows from the seed and its index alone (its own engine and table, its own random
//! stream), so a run is the same on any machine and any number of threads. A match game
//! (`play_match_game`) plays the same opening between two searches with different numbers,
//! each with its own engine and table: what `spsa` tunes on. `draw_openings` gives a run's
//! openings alone (`wuzi-tune openings` writes them as a tournament's opening file).

use super::game::Game;
use crate::eval::order_score;
use crate::search::SearchParams;
use crate::types::{Pos, Rule, Score, WIN_BOUND};
use crate::{Engine, EngineConfig, Limits, SearchResult};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::Duration;

/// What to play.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    /// Number of games.
    pub games: usize,
    /// Node budget of every searched move.
    pub nodes: u64,
    /// Seed of the whole run.
    pub seed: u64,
    /// Board sides, used in turn (game `i` is played on `sizes[i % len]`).
    pub sizes: Vec<usize>,
    /// The rule.
    pub rule: Rule,
    /// Random opening stones, at least and at most (alternating colours, black first).
    pub opening: (usize, usize),
    /// Half-width of the square around the centre the opening stones fall in.
    pub spread: usize,
    /// How far, at most, that square's centre may lie from the board's centre in each
    /// direction, drawn afresh for every opening (0: on the centre). Gomocup's openings sit
    /// anywhere on the board, along the edges and in the corners too; with `spread` the
    /// square stays on the board, so a large offset reaches the edges and corners.
    pub offset: usize,
    /// The first plies after the opening in which a move may be random.
    pub random_plies: usize,
    /// Chance that such a ply plays a random one of the `random_top` best moves.
    pub random_chance: f64,
    /// How many statically best moves a random ply chooses from.
    pub random_top: usize,
    /// Worker threads.
    pub threads: usize,
    /// Keep only openings a search scores as even (`None`: any opening).
    pub balance: Option<Balance>,
}

/// How an opening is judged even enough to play: a search of `nodes` from the side to
/// move scores it within ±`bound`; at most `tries` openings are drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Balance {
    /// Nodes of the judging search.
    pub nodes: u64,
    /// Largest score (either side's) an even opening may have.
    pub bound: Score,
    /// Openings drawn at most.
    pub tries: usize,
}

impl Default for SelfPlay {
    fn default() -> Self {
        SelfPlay {
            games: 100,
            nodes: 4000,
            seed: 1,
            sizes: vec![15, 20],
            rule: Rule::FREESTYLE,
            opening: (2, 4),
            spread: 3,
            offset: 0,
            random_plies: 6,
            random_chance: 0.25,
            random_top: 3,
            threads: 1,
            balance: None,
        }
    }
}

/// Wall-clock cap of one self-play move.
const CLOCK_CAP: Duration = Duration::from_secs(120);

/// Table size of a self-play engine: small, since each game gets a fresh one.
const TT_BYTES: usize = 4 << 20;

/// A self-play engine searching by `params`.
pub fn engine(params: SearchParams) -> Engine {
    Engine::new(EngineConfig {
        tt_bytes: Some(TT_BYTES),
        search: params,
        ..EngineConfig::default()
    })
}

/// Play game number `index` of the run: one engine (and table) plays both sides.
pub fn play_game(cfg: &SelfPlay, index: usize) -> Game {
    play_with(cfg, index, &mut [engine(SearchParams::DEFAULT)])
}

/// Game number `index` of the run (the same opening and random plies' draws as
/// `play_game`'s) between two searches: black searches by `black`, white by `white`, each
/// engine with its own table.
pub fn play_match_game(
    cfg: &SelfPlay,
    index: usize,
    black: SearchParams,
    white: SearchParams,
) -> Game {
    play_with(cfg, index, &mut [engine(black), engine(white)])
}

/// Game `index` with `engines` to move: one for both sides, or black's and white's. Every
/// engine hears every move; the random plies and the win check read the first one's board.
fn play_with(cfg: &SelfPlay, index: usize, engines: &mut [Engine]) -> Game {
    let mut rng = game_rng(cfg, index);
    let size = game_size(cfg, index);
    let mut game = Game {
        size,
        rule_bits: cfg.rule.bits(),
        opening: 0,
        result: 0,
        moves: Vec::new(),
        scores: Vec::new(),
    };
    if engines
        .iter_mut()
        .any(|e| e.new_game(size, cfg.rule).is_err())
    {
        return game;
    }
    // Every engine plays `pos`; false when the first refuses it (the others then never
    // see it, so the boards stay equal).
    let play = |engines: &mut [Engine], pos: Pos| -> bool {
        let ok = engines[0].play(pos).is_ok();
        if ok {
            for e in &mut engines[1..] {
                // Equal boards accept the same move.
                let _ = e.play(pos);
            }
        }
        ok
    };
    for pos in opening(cfg, size, &mut rng).0 {
        if play(engines, pos) {
            game.moves.push(pos);
            game.scores.push(None);
        }
    }
    game.opening = game.moves.len();
    let sign = |ply: usize| if ply.is_multiple_of(2) { 1 } else { -1 };
    while game.moves.len() < size * size {
        let ply = game.moves.len();
        let random = ply - game.opening < cfg.random_plies && rng.random_bool(cfg.random_chance);
        let (pos, score) = if random {
            (
                random_good_move(&engines[0], cfg.random_top, &mut rng),
                None,
            )
        } else {
            let side = engines[0].board().side_to_move().idx();
            let n = engines.len();
            let r = search_nodes(&mut engines[side % n], cfg.nodes);
            (r.best, recorded_score(&r))
        };
        if !play(engines, pos) {
            break;
        }
        game.moves.push(pos);
        game.scores.push(score);
        if engines[0].board().last_move_won() {
            game.result = sign(ply);
            break;
        }
        // A proven win or loss ends the game: the rest would only play it out.
        if let Some(s) = score.filter(|s: &Score| s.abs() >= WIN_BOUND) {
            game.result = sign(ply) * s.signum() as i8;
            break;
        }
    }
    game
}

/// Game `index`'s random stream: its opening's draws first, then its random plies'.
fn game_rng(cfg: &SelfPlay, index: usize) -> StdRng {
    StdRng::seed_from_u64(cfg.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index as u64)
}

/// Game `index`'s board side.
fn game_size(cfg: &SelfPlay, index: usize) -> usize {
    match cfg.sizes.len() {
        0 => 15,
        n => cfg.sizes[index % n].clamp(5, 32),
    }
}

/// A run's opening number `index`: the one its game `index` starts from, on that game's
/// board, with the judging search's score of it (`None` without `cfg.balance`).
#[derive(Clone, Debug, PartialEq)]
pub struct DrawnOpening {
    /// Board side.
    pub size: usize,
    /// The stones, black first.
    pub stones: Vec<Pos>,
    /// The judging search's score for the side to move.
    pub score: Option<Score>,
}

/// Opening number `index` of the run `cfg` (see `DrawnOpening`).
pub fn run_opening(cfg: &SelfPlay, index: usize) -> DrawnOpening {
    let size = game_size(cfg, index);
    let (stones, score) = opening(cfg, size, &mut game_rng(cfg, index));
    DrawnOpening {
        size,
        stones,
        score,
    }
}

/// The opening of a game: distinct random cells in a square around the centre. Under
/// `cfg.balance`, drawn again (up to its tries) until a search of the side to move scores
/// it within the bound; when none is, the most even one drawn. With the judging search's
/// score (`None` without `cfg.balance`).
fn opening(cfg: &SelfPlay, size: usize, rng: &mut StdRng) -> (Vec<Pos>, Option<Score>) {
    let (lo, hi) = (cfg.opening.0, cfg.opening.1.max(cfg.opening.0));
    let spread = square_spread(cfg, size) as i64;
    // Each draw gets a scratch engine, with a table of its own, which places the stones and
    // judges them: the judgement depends on the opening alone.
    let draw = |rng: &mut StdRng| -> (Engine, Vec<Pos>) {
        let mut scratch = engine(SearchParams::DEFAULT);
        let mut stones = Vec::new();
        if scratch.new_game(size, cfg.rule).is_err() {
            return (scratch, stones);
        }
        let count = rng.random_range(lo..=hi);
        let (cx, cy) = square_centre(cfg.offset, spread, size, rng);
        while stones.len() < count {
            let x = (cx + rng.random_range(-spread..=spread)) as usize;
            let y = (cy + rng.random_range(-spread..=spread)) as usize;
            let pos = Pos::new(x, y);
            if scratch.play(pos).is_ok() {
                stones.push(pos);
            }
        }
        (scratch, stones)
    };
    let Some(balance) = cfg.balance else {
        return (draw(rng).1, None);
    };
    let mut best: Option<(Score, Vec<Pos>)> = None;
    for _ in 0..balance.tries.max(1) {
        let (mut scratch, stones) = draw(rng);
        let score = opening_score(&mut scratch, balance.nodes);
        if score.abs() <= balance.bound {
            return (stones, Some(score));
        }
        if best.as_ref().is_none_or(|(s, _)| score.abs() < s.abs()) {
            best = Some((score, stones));
        }
    }
    best.map_or((Vec::new(), None), |(score, stones)| (stones, Some(score)))
}

/// Half-width of the square an opening's stones fall in on a board of `size`: `spread`,
/// capped so that the square fits on the board.
fn square_spread(cfg: &SelfPlay, size: usize) -> usize {
    cfg.spread.min(size / 2 - 1)
}

impl SelfPlay {
    /// Refuse a run whose openings could never be drawn: on some board of the run the
    /// opening square has fewer cells than the most stones asked for, and the draw, which
    /// takes distinct cells until it has them all, would never end.
    pub fn check_opening_room(&self) -> Result<(), String> {
        for index in 0..self.sizes.len().max(1) {
            let side = 2 * square_spread(self, game_size(self, index)) + 1;
            if side * side < self.opening.1 {
                return Err(format!(
                    "--spread {} --max-stones {}: a {side}x{side} square has no room for that many stones",
                    self.spread, self.opening.1
                ));
            }
        }
        Ok(())
    }
}

/// The centre of the square an opening's stones fall in: the board's centre, or with an
/// `offset` a cell drawn up to that far from it in each direction and moved in until the
/// square of half-width `spread` lies on the board. No random number is drawn without an
/// offset, so the openings of earlier runs (and the generations fitted on them) are drawn
/// again exactly.
fn square_centre(offset: usize, spread: i64, size: usize, rng: &mut StdRng) -> (i64, i64) {
    let centre = (size / 2) as i64;
    if offset == 0 {
        return (centre, centre);
    }
    let offset = offset as i64;
    let (lo, hi) = (spread, size as i64 - 1 - spread);
    let mut coord = || (centre + rng.random_range(-offset..=offset)).clamp(lo, hi);
    let x = coord();
    (x, coord())
}

/// `engine`'s search of `nodes` from its position. A wall-clock cap far above what the
/// node budget takes guards against a pathological search; within it, the result follows
/// from the nodes alone. (The root threat searches get a sixth and a quarter of it: with a
/// 5 s cap, a process starved of CPU on a loaded machine hit them and changed a game.)
pub(crate) fn search_nodes(engine: &mut Engine, nodes: u64) -> SearchResult {
    let limits = Limits {
        max_nodes: Some(nodes),
        ..Limits::time(CLOCK_CAP)
    };
    engine.think(&limits)
}

/// The score a games file records for a search: none when the search says nothing. Under
/// a node cap the root's threat search may spend the whole budget without a proof, leaving
/// the alpha-beta nothing: the move is then the engine's static fallback (depth 0).
pub(crate) fn recorded_score(r: &SearchResult) -> Option<Score> {
    (r.depth > 0 || r.score.abs() >= WIN_BOUND).then_some(r.score)
}

/// The score of `engine`'s position for the side to move, by a search of `nodes`.
pub fn opening_score(engine: &mut Engine, nodes: u64) -> Score {
    search_nodes(engine, nodes).score
}

/// A random one of the `top` candidates with the best static ordering score.
fn random_good_move(engine: &Engine, top: usize, rng: &mut StdRng) -> Pos {
    let board = engine.board();
    let mut moves: Vec<(i32, Pos)> = board
        .candidates()
        .iter()
        .map(|&p| (order_score(board, p), p))
        .collect();
    moves.sort_by(|a, b| b.0.cmp(&a.0).then(a.1 .0.cmp(&b.1 .0)));
    moves.truncate(top.max(1));
    if moves.is_empty() {
        return Pos::NONE;
    }
    moves[rng.random_range(0..moves.len())].1
}

/// Play the whole run on `cfg.threads` threads, games in index order; `progress` hears of
/// each finished game (its index).
pub fn play_all(cfg: &SelfPlay, progress: &(dyn Fn(usize) + Sync)) -> Vec<Game> {
    each_index(cfg.games, cfg.threads, &|i| play_game(cfg, i), progress)
}

/// The run's first `count` openings (`run_opening`) on `cfg.threads` threads, in index
/// order; `progress` hears of each (its index). They do not depend on the thread count.
pub fn draw_openings(
    cfg: &SelfPlay,
    count: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<DrawnOpening> {
    each_index(count, cfg.threads, &|i| run_opening(cfg, i), progress)
}

/// `work(i)` for every `i` below `count` on `threads` threads, in index order; `progress`
/// hears of each finished index. A worker that panics loses its results; the rest are kept.
fn each_index<T: Send>(
    count: usize,
    threads: usize,
    work: &(dyn Fn(usize) -> T + Sync),
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<T> {
    let threads = threads.clamp(1, 64);
    let mut slots: Vec<Option<T>> = (0..count).map(|_| None).collect();
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    (t..count)
                        .step_by(threads)
                        .map(|i| {
                            let out = work(i);
                            progress(i);
                            (i, out)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for h in handles {
            for (i, out) in h.join().unwrap_or_default() {
                slots[i] = Some(out);
            }
        }
    });
    slots.into_iter().flatten().collect()
}
