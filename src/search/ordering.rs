//! Move ordering: each move's key packs its ordering score and its cell into one integer,
//! and the picker hands moves out best first by selection, since most nodes cut off after
//! the first few moves and a full sort would be wasted.

use super::params::SearchParams;
use super::pvs::Search;
use crate::board::MoveList;
use crate::types::{Pos, Score, NUM_CELLS};
use smallvec::SmallVec;

/// A move's ordering score and cell in one integer: higher scores first, and among equal
/// scores the lower cell first. Comparing one `i64` is cheaper in the selection loop than
/// comparing `(score, Reverse(cell))` pairs, and orders the same.
#[inline]
fn pack_order(score: Score, m: Pos) -> i64 {
    ((score as i64) << 16) | (u16::MAX - m.0) as i64
}

/// The cell of a `pack_order` key.
#[inline]
fn unpack_order(key: i64) -> Pos {
    Pos(u16::MAX - (key & 0xFFFF) as u16)
}

/// Ordering bonus of the table's move: above every static score.
const TT_MOVE_BONUS: i32 = 1 << 24;
/// History counters are scaled down by this shift and capped at the parameters'
/// `history_cap` (the killers' bonuses are parameters too).
const HISTORY_SHIFT: u32 = 4;

/// Which earlier move a remembered reply answers; the value is its age in plies
/// (`Board::recent_move`).
#[derive(Clone, Copy)]
pub(super) enum Reply {
    /// The counter move: the reply to the opponent's last move.
    Counter = 0,
    /// The follow-up move: the move after the side to move's own previous one.
    FollowUp = 1,
}

/// What cut off after earlier moves, by side to move: the counter and follow-up moves (one
/// per earlier cell and `Reply`), and when `cont_history` is on the continuation history, a
/// counter per opponent's last cell and reply cell rewarded as the history is.
pub(super) struct Replies {
    moves: Box<[[[Pos; NUM_CELLS]; 2]; 2]>,
    /// `2 · NUM_CELLS²` counters, or none when `cont_history` is 0. Zeroed pages come from
    /// the allocator untouched, so a search pays only for the rows it reaches.
    continuation: Vec<i16>,
}

impl Replies {
    /// Nothing remembered yet.
    pub(super) fn new(params: &SearchParams) -> Replies {
        let cells = if params.cont_history > 0 {
            2 * NUM_CELLS * NUM_CELLS
        } else {
            0
        };
        Replies {
            moves: Box::new([[[Pos::NONE; NUM_CELLS]; 2]; 2]),
            continuation: vec![0; cells],
        }
    }

    /// Where the continuation counters after `before`, by the side `me`, start (the
    /// counter of a reply `m` is at this index plus `m.index()`).
    #[inline]
    fn row(me: usize, before: Pos) -> usize {
        (me * NUM_CELLS + before.index()) * NUM_CELLS
    }
}

/// The quiet moves a node searched before its cutoff (the history's malus goes to them).
pub(super) type Tried = SmallVec<[Pos; 16]>;

/// The moves of one node, handed out best first.
pub(super) struct MovePicker {
    keys: SmallVec<[i64; 64]>,
    next: usize,
}

impl MovePicker {
    /// Whether there is no move at all.
    pub(super) fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The first move generated (before any is picked, keys are in generation order).
    pub(super) fn first_generated(&self) -> Pos {
        unpack_order(self.keys[0])
    }

    /// The best move not handed out yet, and how many were handed out before it.
    #[inline]
    pub(super) fn next(&mut self) -> Option<(usize, Pos)> {
        let i = self.next;
        if i >= self.keys.len() {
            return None;
        }
        let mut pick = i;
        let mut top = self.keys[i];
        for (j, &key) in self.keys.iter().enumerate().skip(i + 1) {
            if key > top {
                top = key;
                pick = j;
            }
        }
        self.keys.swap(i, pick);
        self.next += 1;
        Some((i, unpack_order(top)))
    }
}

/// A move farther than this (Chebyshev) from a recent move is "far" from it.
const FAR_DISTANCE: usize = 4;

/// What a node's ordering reads once for all of its moves: the locality factor and the
/// remembered replies to the last moves.
struct NodeOrder {
    near: Locality,
    /// The counter and follow-up moves (`Pos::NONE` when their bonus is 0 or unknown).
    replies: [Pos; 2],
    /// Where the continuation counters after the opponent's last move start (`None` when
    /// `cont_history` is 0 or there is no last move).
    continuation: Option<usize>,
}

/// The ordering's locality factor (PentaZen's): the static score of a move far from both
/// of the last two moves keeps `far2` percent of itself, and of a move far from all of the
/// last four, `far4` percent (a negative score falls by as much). At 100 and 100 (the
/// defaults) it is off and costs nothing.
#[derive(Clone, Copy)]
struct Locality {
    recent: [Option<Pos>; 4],
    far2: i32,
    far4: i32,
}

impl Locality {
    /// `s`, the static score of `m`, scaled by how far `m` is from the recent moves.
    #[inline]
    fn scale(&self, m: Pos, s: i32) -> i32 {
        if self.far2 == 100 && self.far4 == 100 {
            return s;
        }
        let far = |k: usize| self.recent[k].is_some_and(|r| r.distance(m) > FAR_DISTANCE);
        if !(far(0) && far(1)) {
            return s;
        }
        let keep = if far(2) && far(3) {
            self.far4
        } else {
            self.far2
        };
        // The score loses (100 - keep) percent of its size, so a far move never rises: a
        // negative score (policy terms outweighing the classes) falls further.
        s - s.abs() * (100 - keep) / 100
    }
}

impl Search<'_> {
    /// What this node's moves are ordered by besides their own scores.
    fn node_order(&self) -> NodeOrder {
        let p = &self.params;
        let near = Locality {
            recent: [0, 1, 2, 3].map(|k| self.board.recent_move(k)),
            far2: p.far_recent2,
            far4: p.far_recent4,
        };
        let reply = |kind: Reply, bonus: i32| {
            if bonus > 0 {
                self.reply_to(kind)
            } else {
                Pos::NONE
            }
        };
        let me = self.board.side_to_move().idx();
        let continuation = match self.board.recent_move(0) {
            Some(last) if p.cont_history > 0 => Some(Replies::row(me, last)),
            _ => None,
        };
        NodeOrder {
            near,
            replies: [
                reply(Reply::Counter, p.counter_move),
                reply(Reply::FollowUp, p.followup_move),
            ],
            continuation,
        }
    }

    /// A picker over `moves` (which the caller has cleared of forbidden cells).
    pub(super) fn pick_from(&self, moves: &MoveList, tt_move: Pos, ply: usize) -> MovePicker {
        let node = self.node_order();
        MovePicker {
            keys: moves
                .iter()
                .map(|&m| self.order_key(m, tt_move, ply, &node))
                .collect(),
            next: 0,
        }
    }

    /// A picker over `Board::candidates`, scored straight off the board scan.
    pub(super) fn pick_candidates(&self, tt_move: Pos, ply: usize) -> MovePicker {
        if self.board.move_count() == 0 {
            // The empty board's candidate is the centre, which the scan does not produce.
            return self.pick_from(&self.board.candidates(), tt_move, ply);
        }
        if self.board.rule().renju {
            return self.pick_legal_candidates(tt_move, ply);
        }
        let node = self.node_order();
        let mut keys = SmallVec::new();
        self.board
            .for_each_candidate(|m| keys.push(self.order_key(m, tt_move, ply, &node)));
        MovePicker { keys, next: 0 }
    }

    /// `pick_candidates` under renju: black's forbidden cells are left out.
    #[inline(never)]
    fn pick_legal_candidates(&self, tt_move: Pos, ply: usize) -> MovePicker {
        let me = self.board.side_to_move();
        let node = self.node_order();
        let mut keys = SmallVec::new();
        self.board.for_each_candidate(|m| {
            if !self.board.is_forbidden_for(m, me) {
                keys.push(self.order_key(m, tt_move, ply, &node));
            }
        });
        MovePicker { keys, next: 0 }
    }

    /// The ordering key of `m`: static score (scaled by the locality factor), table move,
    /// killers, remembered replies and history.
    #[inline]
    fn order_key(&self, m: Pos, tt_move: Pos, ply: usize, node: &NodeOrder) -> i64 {
        let killers = &self.killers[ply];
        let p = &self.params;
        let mut s = node.near.scale(m, p.order.score(self.board, m));
        if m == tt_move {
            s += TT_MOVE_BONUS;
        } else if m == killers[0] {
            s += p.killer[0];
        } else if m == killers[1] {
            s += p.killer[1];
        } else if m == node.replies[Reply::Counter as usize] {
            s += p.counter_move;
        } else if m == node.replies[Reply::FollowUp as usize] {
            s += p.followup_move;
        }
        s += self.history_bonus(m);
        if let Some(row) = node.continuation {
            s += self.continuation_bonus(row + m.index());
        }
        pack_order(s, m)
    }

    /// The ordering bonus of the continuation counter at `slot` (scaled down, capped like
    /// the history, then weighted by `cont_history` percent).
    #[inline]
    fn continuation_bonus(&self, slot: usize) -> i32 {
        let c = self.replies.continuation[slot];
        let capped = (i32::from(c) >> HISTORY_SHIFT).min(self.params.history_cap);
        capped * self.params.cont_history / 100
    }

    /// The ordering bonus of `m`'s history for the side to move (scaled down and capped).
    #[inline]
    pub(super) fn history_bonus(&self, m: Pos) -> i32 {
        let me = self.board.side_to_move();
        let cap = self.params.history_cap;
        (self.history[me.idx()][m.index()] >> HISTORY_SHIFT).clamp(-cap, cap)
    }

    /// The side to move's quiet move that last cut off after the move `kind` names
    /// (`Pos::NONE`: none yet).
    #[inline]
    fn reply_to(&self, kind: Reply) -> Pos {
        let me = self.board.side_to_move();
        self.board
            .recent_move(kind as usize)
            .map_or(Pos::NONE, |before| {
                self.replies.moves[kind as usize][me.idx()][before.index()]
            })
    }

    /// Remember a quiet move that cut off at `ply` after a search of `depth`, and that the
    /// quiet moves `tried` before it did not (`history_malus` percent of the reward each).
    pub(super) fn reward(&mut self, m: Pos, ply: usize, depth: i32, tried: &[Pos]) {
        let me = self.board.side_to_move();
        let k = &mut self.killers[ply];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
        for kind in [Reply::Counter, Reply::FollowUp] {
            if let Some(before) = self.board.recent_move(kind as usize) {
                self.replies.moves[kind as usize][me.idx()][before.index()] = m;
            }
        }
        if let Some(last) = self.board.recent_move(0) {
            if let Some(c) = self
                .replies
                .continuation
                .get_mut(Replies::row(me.idx(), last) + m.index())
            {
                *c = c.saturating_add((depth * depth).min(i32::from(i16::MAX)) as i16);
            }
        }
        // Without gravity a counter adds its change, within ±2^20 (the bonus is capped
        // when read). With gravity counters stay within ± the cap (before the shift): each
        // change also closes its share of the distance to the bound it moves towards.
        let p = &self.params;
        let gravity = p.history_gravity > 0;
        let max = (p.history_cap << HISTORY_SHIFT).max(1);
        let bonus = if gravity {
            (depth * depth * p.history_gravity / 100).clamp(0, max)
        } else {
            depth * depth
        };
        let update = |h: &mut i32, change: i32| {
            const LIMIT: i32 = 1 << 20;
            if gravity {
                // (The product goes through i64: a large cap squared leaves an i32.)
                let pull = i64::from(*h) * i64::from(change.abs()) / i64::from(max);
                *h += change - pull as i32;
            } else {
                *h = (*h + change).clamp(-LIMIT, LIMIT);
            }
        };
        let history = &mut self.history[me.idx()];
        update(&mut history[m.index()], bonus);
        let malus = bonus * p.history_malus / 100;
        if malus > 0 {
            for t in tried {
                update(&mut history[t.index()], -malus);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::budget::Budget;
    use crate::search::params::SearchParams;
    use crate::tt::TranspositionTable;
    use crate::types::Rule;

    /// The ordering score `order_key` gives `m` at ply 3 (its key without the cell).
    fn order_score(s: &Search, m: Pos) -> i64 {
        s.order_key(m, Pos::NONE, 3, &s.node_order()) >> 16
    }

    /// Each of three moves' ordering score, before and after a cutoff by the first at ply
    /// 5 (not the ply scored: no killer bonus) after 8 plies, with the second tried before
    /// it, under `params`; and the remembered counter and follow-up moves, right after the
    /// cutoff and two plies later, with the cut move's score then.
    fn scores_around_a_cutoff(params: SearchParams) -> ([i64; 3], [i64; 3], [[Pos; 2]; 2], i64) {
        let mut board = Board::new(20, Rule::FREESTYLE).expect("size");
        board.play(Pos::new(10, 10));
        board.play(Pos::new(11, 11));
        let mut tt = TranspositionTable::with_bytes(0);
        let mut s = Search::new(&mut board, &mut tt, Budget::new(1, None), params);
        let moves = [Pos::new(9, 9), Pos::new(12, 12), Pos::new(9, 11)];
        let before = moves.map(|m| order_score(&s, m));
        s.reward(moves[0], 5, 8, &[moves[1]]);
        let after = moves.map(|m| order_score(&s, m));
        let replies = |s: &Search| [Reply::Counter, Reply::FollowUp].map(|k| s.reply_to(k));
        let now = replies(&s);
        s.board.play(Pos::new(5, 5));
        s.board.play(Pos::new(6, 6));
        let later = order_score(&s, moves[0]);
        (before, after, [now, replies(&s)], later)
    }

    #[test]
    fn the_locality_factor_lowers_far_moves_whatever_the_sign_of_their_score() {
        let near = Locality {
            recent: [(9, 9), (10, 9), (3, 3), (3, 4)].map(|(x, y)| Some(Pos::new(x, y))),
            far2: 50,
            far4: 25,
        };
        // Within four cells of one of the last two moves: unchanged.
        assert_eq!(near.scale(Pos::new(13, 9), 80), 80);
        assert_eq!(near.scale(Pos::new(13, 9), -80), -80);
        // Far from the last two, near the older ones: half of its size off.
        assert_eq!(near.scale(Pos::new(4, 4), 80), 40);
        assert_eq!(near.scale(Pos::new(4, 4), -80), -120);
        // Far from all four: three quarters off.
        assert_eq!(near.scale(Pos::new(18, 18), 80), 20);
        assert_eq!(near.scale(Pos::new(18, 18), -80), -140);
        // At 100 and 100 the factor is off.
        let off = Locality {
            far2: 100,
            far4: 100,
            ..near
        };
        assert_eq!(off.scale(Pos::new(18, 18), -80), -80);
    }

    #[test]
    fn a_cutoff_moves_history_and_counter_move_and_the_malus_of_the_moves_before_it() {
        let params = SearchParams {
            history_malus: 50,
            counter_move: 250,
            followup_move: 120,
            ..SearchParams::DEFAULT
        };
        let (before, after, replies, _) = scores_around_a_cutoff(params);
        // The cut move: history 64 >> 4 = 4, plus the counter move's bonus (a counter move
        // takes no follow-up bonus as well).
        assert_eq!(after[0] - before[0], 4 + 250);
        // The move tried before it: half the reward taken, 32 >> 4 = 2.
        assert_eq!(after[1] - before[1], -2);
        assert_eq!(after[2], before[2]);
        // Both replies belong to the moves before the cutoff (white's 11,11 and black's
        // own 10,10), not to the next ones.
        assert_eq!(replies, [[Pos::new(9, 9); 2], [Pos::NONE; 2]]);
        // The follow-up move alone.
        let followup = SearchParams {
            counter_move: 0,
            followup_move: 120,
            ..SearchParams::DEFAULT
        };
        let (before, after, _, _) = scores_around_a_cutoff(followup);
        assert_eq!(after[0] - before[0], 4 + 120);
        // With the three numbers at 0, a cutoff only adds its history.
        let off = SearchParams {
            history_malus: 0,
            counter_move: 0,
            followup_move: 0,
            ..SearchParams::DEFAULT
        };
        let (before, after, _, later_off) = scores_around_a_cutoff(off);
        assert_eq!(after, [before[0] + 4, before[1], before[2]]);

        // The continuation history: the cut move's reward again, 64 >> 4 = 4, at 100 %
        // (2 at 50 %), after white's 11,11 only: two plies later it is gone.
        for (weight, bonus) in [(100, 4), (50, 2)] {
            let cont = SearchParams {
                cont_history: weight,
                ..off
            };
            let (before, after, _, later) = scores_around_a_cutoff(cont);
            assert_eq!(after, [before[0] + 4 + bonus, before[1], before[2]]);
            assert_eq!(later, later_off);
        }
    }

    #[test]
    fn gravity_keeps_the_history_inside_the_cap_and_in_order() {
        let params = SearchParams {
            history_gravity: 400,
            history_malus: 50,
            counter_move: 0,
            ..SearchParams::DEFAULT
        };
        let mut board = Board::new(20, Rule::FREESTYLE).expect("size");
        board.play(Pos::new(10, 10));
        let mut tt = TranspositionTable::with_bytes(0);
        let mut s = Search::new(&mut board, &mut tt, Budget::new(1, None), params);
        let (often, once, tried) = (Pos::new(9, 9), Pos::new(9, 11), Pos::new(12, 12));
        let max = params.history_cap << HISTORY_SHIFT;
        let me = s.board.side_to_move().idx();
        // The first reward is depth² · 4 = 256 from 0; the malus half of it, 128.
        s.reward(often, 2, 8, &[tried]);
        assert_eq!(s.history[me][often.index()], 256);
        assert_eq!(s.history[me][tried.index()], -128);
        // The second closes 256/4800 of the distance left: 256 + 256 - 256·256/4800.
        s.reward(often, 2, 8, &[]);
        assert_eq!(s.history[me][often.index()], 256 + 256 - 13);
        s.reward(once, 2, 8, &[]);
        // A thousand deep cutoffs approach the cap without passing it, and the move rewarded
        // more often still orders first.
        for _ in 0..1000 {
            s.reward(often, 2, 20, &[tried]);
        }
        let h = |m: Pos| s.history[me][m.index()];
        assert!(h(often) <= max && h(often) > max * 9 / 10, "{}", h(often));
        assert!(h(tried) >= -max && h(tried) < -max * 9 / 10, "{}", h(tried));
        assert!(s.history_bonus(often) > s.history_bonus(once));
        assert!(s.history_bonus(once) > 0);
    }
}
