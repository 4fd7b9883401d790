//! Threat-space search: VCF (victory by continuous fours) and VCT (fours and open threes).
//!
//! Both walk the same board and share the transposition table with the alpha-beta, under
//! keys salted per solver so a threat result never poses as a search score. Proven wins
//! are stored at a depth no search reaches, so they are never searched twice; failures are
//! stored with the depth they were tried to, and reused only as deep.

use crate::board::Board;
use crate::budget::Budget;
use crate::movegen::{cells_at_least, defences, five_cells, scan_lines, scan_lines_by_dir};
use crate::pattern::{Pattern, Pattern4};
use crate::tt::{BoardNode, Bound, TranspositionTable};
use crate::types::{Color, Pos, Score, WIN, WIN_BOUND};
use crate::zobrist::MultiKey;
use smallvec::SmallVec;

/// Depth at which proven results are stored: deeper than any threat search asks for.
const PROVEN: i32 = 120;
/// Salt XORed into VCF keys.
const VCF_SALT: MultiKey = MultiKey {
    hash: 0x9E37_79B9_7F4A_7C15,
    check: 0xC2B2_AE3D_27D4_EB4F,
};
/// Salt XORed into VCT keys.
const VCT_SALT: MultiKey = MultiKey {
    hash: 0xD6E8_FEB8_6659_FD93,
    check: 0x1656_67B1_9E37_79F9,
};

/// How an attacker node starts (see `attacker_entry`).
enum Entry {
    /// A five is on offer: won in one.
    Won,
    /// Out of budget or depth, or facing two fives.
    Failed,
    /// Search on: the attacker, and the opponent's five cell if it has one.
    Open(Color, Option<Pos>),
}

/// Fours a quiet attacking move may leave the attacker needing: a quiet move (no four, no
/// open three) is a VCT threat when, were the defender to pass, the attacker would win by a
/// VCF of at most this many fours (a 4-3 or 4-4 set up one or two moves ahead).
const QUIET_THREAT_FOURS: i32 = 3;

/// Quiet threats below the root must stand this close to the attacker's previous move.
const QUIET_REACH: usize = 2;

/// Fours of the defender's VCF looked for at VCT nodes (see `vct_attack`, `vct_defend`).
const COUNTER_VCF_FOURS: i32 = 2;

/// Quiet threats one VCT line may use.
const QUIET_THREATS: i32 = 2;

/// Odd multipliers that spread a cell index over both key words (see `vct_attack`).
const LAST_MOVE_MIX: MultiKey = MultiKey {
    hash: 0xA24B_AED4_963E_E407,
    check: 0x9FB2_1C65_1E98_DF25,
};

/// A winning line: the attacker's moves and the forced replies, alternating.
pub type ProofLine = Vec<Pos>;

/// The shared context of one threat search.
pub struct ThreatSearch<'a> {
    /// The position, restored on return.
    pub board: &'a mut Board,
    /// Shared table (may be a zero-size one).
    pub tt: &'a mut TranspositionTable,
    /// Node and time budget.
    pub budget: &'a mut Budget,
    /// Compare check words (off for the `--no-checksum` ablation).
    pub checksum: bool,
}

impl ThreatSearch<'_> {
    fn key(&self, salt: MultiKey) -> MultiKey {
        let mut k = self.board.key().with(salt);
        if !self.checksum {
            k.check = 0;
        }
        k
    }

    fn recall(&mut self, key: MultiKey, depth: i32) -> Option<Option<(Pos, i32)>> {
        let probe = self.tt.probe(key, depth, 0, 1);
        let score = probe.cutoff?;
        if score >= WIN_BOUND {
            let mv = probe.node.map(|n| n.best_move).unwrap_or(Pos::NONE);
            Some(Some((mv, WIN - score)))
        } else {
            Some(None)
        }
    }

    fn remember(&mut self, key: MultiKey, depth: i32, result: Option<(Pos, i32)>) {
        let node = match result {
            Some((mv, dist)) => BoardNode {
                score: WIN - dist,
                depth: PROVEN,
                best_move: mv,
                bound: Bound::Exact,
            },
            None => BoardNode {
                score: 0,
                depth,
                best_move: Pos::NONE,
                bound: Bound::Upper,
            },
        };
        self.tt.store(key, node);
    }

    /// What every attacker node checks first: the budget, a five to make (pushed onto
    /// `line`), two opponent fives or no depth left (a dead end).
    fn attacker_entry(&mut self, depth: i32, line: &mut ProofLine) -> Entry {
        if self.budget.tick() {
            return Entry::Failed;
        }
        let me = self.board.side_to_move();
        if let Some(&f) = five_cells(self.board, me, 1).first() {
            line.push(f);
            return Entry::Won;
        }
        let opp_fives = five_cells(self.board, me.opp(), 2);
        if opp_fives.len() >= 2 || depth <= 0 {
            return Entry::Failed;
        }
        Entry::Open(me, opp_fives.first().copied())
    }

    /// Search for a VCF of the side to move up to `max_fours` fours. On success returns the
    /// proof line (attacker's first move first).
    pub fn vcf(&mut self, max_fours: i32) -> Option<ProofLine> {
        let mut line = ProofLine::new();
        self.vcf_node(max_fours, &mut line).map(|_| {
            line.reverse();
            line
        })
    }

    /// One attacker node of the VCF; returns the number of plies to the five.
    fn vcf_node(&mut self, depth: i32, line: &mut ProofLine) -> Option<i32> {
        let (me, opp_five) = match self.attacker_entry(depth, line) {
            Entry::Won => return Some(1),
            Entry::Failed => return None,
            Entry::Open(me, opp_five) => (me, opp_five),
        };
        let key = self.key(VCF_SALT);
        if let Some(known) = self.recall(key, depth) {
            let (mv, dist) = known?;
            if mv.is_some() && dist == 1 {
                line.push(mv);
                return Some(1);
            }
        }
        let moves: SmallVec<[Pos; 32]> = match opp_five {
            // A four that is also the forced block is the only way on.
            Some(b) if self.board.p4(b, me) >= Pattern4::EBlock4 => SmallVec::from_slice(&[b]),
            Some(_) => return None,
            None => self.four_moves(me),
        };
        let mut result = None;
        for m in moves {
            if let Some(dist) = self.try_four(m, depth, line) {
                result = Some((m, dist));
                break;
            }
            if self.budget.stopped() {
                return None;
            }
        }
        if !self.budget.stopped() {
            self.remember(key, depth, result);
        }
        result.map(|(_, d)| d)
    }

    /// The attacker's four-making cells, strongest class first.
    fn four_moves(&self, me: Color) -> SmallVec<[Pos; 32]> {
        let mut moves: SmallVec<[Pos; 32]> = cells_at_least(self.board, me, Pattern4::EBlock4)
            .into_iter()
            .filter(|&p| self.board.p4(p, me) < Pattern4::AFive)
            .collect();
        let last = self.board.recent_move(1);
        moves.sort_by_key(|&p| {
            let near = last.map_or(0, |l| (l.distance(p) <= 2) as i32);
            -(self.board.p4(p, me) as i32 * 4 + near)
        });
        moves
    }

    /// Play the four `m`, the forced block, and continue; undo both.
    fn try_four(&mut self, m: Pos, depth: i32, line: &mut ProofLine) -> Option<i32> {
        let me = self.board.side_to_move();
        self.board.play(m);
        let fives = own_fives_after(self.board, m, me);
        let result = match fives.len() {
            0 => None,
            1 => {
                let block = fives[0];
                self.board.play(block);
                let r = self.vcf_node(depth - 1, line);
                self.board.undo().ok();
                r.map(|d| {
                    line.push(block);
                    d + 2
                })
            }
            _ => {
                // Two five cells: the defender blocks one, the other wins.
                line.push(fives[1]);
                line.push(fives[0]);
                Some(3)
            }
        };
        self.board.undo().ok();
        if result.is_some() {
            line.push(m);
        }
        result
    }

    /// Search for a VCT of the side to move up to `depth` attacker moves (fours and threes).
    pub fn vct(&mut self, depth: i32) -> Option<ProofLine> {
        // Loud threats (fours and threes) first; quiet ones only when those found nothing,
        // one more allowed per line each round. Deepen gradually within a round: short wins
        // are found at a fraction of the cost of a deep tree, and the failures stored at
        // each depth prune the next.
        for quiet in 0..=QUIET_THREATS {
            let mut d = 2;
            loop {
                let d_now = d.min(depth);
                let mut line = ProofLine::new();
                if self.vct_attack(d_now, quiet, true, &mut line).is_some() {
                    line.reverse();
                    return Some(line);
                }
                if self.budget.stopped() {
                    return None;
                }
                if d_now >= depth {
                    break;
                }
                d += 2;
            }
        }
        None
    }

    /// The VCT memo key. The moves tried below the root depend on the attacker's last move
    /// (locality), so it is part of what a stored result means. It is mixed in with its own
    /// constants: XORing that stone's Zobrist key would cancel the stone out of the position
    /// and make "this position, last move here" alias "that position, last move there"
    /// whenever the two differ only in where the last stone stands.
    fn vct_key(&self, quiet: i32, root: bool) -> MultiKey {
        let mut key = self.key(VCT_SALT);
        key.hash ^= (quiet as u64).wrapping_mul(LAST_MOVE_MIX.check);
        if !root {
            if let Some(last) = self.board.recent_move(1) {
                let cell = last.index() as u64 + 1;
                key.hash ^= cell.wrapping_mul(LAST_MOVE_MIX.hash).rotate_left(29);
                if self.checksum {
                    key.check ^= cell.wrapping_mul(LAST_MOVE_MIX.check).rotate_left(31);
                }
            }
        }
        key
    }

    fn vct_attack(
        &mut self,
        depth: i32,
        quiet: i32,
        root: bool,
        line: &mut ProofLine,
    ) -> Option<i32> {
        let (me, opp_five) = match self.attacker_entry(depth, line) {
            Entry::Won => return Some(1),
            Entry::Failed => return None,
            Entry::Open(me, opp_five) => (me, opp_five),
        };
        let key = self.vct_key(quiet, root);
        if let Some(known) = self.recall(key, depth) {
            let (mv, dist) = known?;
            if mv.is_some() && dist == 1 {
                line.push(mv);
                return Some(1);
            }
        }
        let mut loud = 1;
        // Whether the defender was shown to have no VCF here even with a free move: then
        // he has none after any attacking move either (a stone of ours never helps his fours).
        let mut no_counter = false;
        let moves: SmallVec<[Pos; 32]> = if let Some(b) = opp_five {
            SmallVec::from_slice(&[b])
        } else {
            // A VCF is a VCT too, and far cheaper to find.
            let mut vline = ProofLine::new();
            if let Some(d) = self.vcf_node(depth.min(12), &mut vline) {
                line.extend(vline);
                return Some(d);
            }
            let mut moves = self.threat_moves(me, root);
            // If the defender could win by fours were it his move, a threat that does not
            // touch that VCF only loses a tempo: he plays it out first.
            let answers = self
                .pass_vcf(COUNTER_VCF_FOURS)
                .map(|threat| self.threat_defences(&threat));
            if let Some(a) = &answers {
                moves.retain(|m| a.contains(m));
            }
            no_counter = answers.is_none() && !self.budget.stopped();
            loud = moves.len();
            if depth >= 2 && quiet > 0 {
                self.push_quiet_threats(me, root, answers.as_deref(), &mut moves);
            }
            moves
        };
        let mut result = None;
        for (i, m) in moves.into_iter().enumerate() {
            self.board.play(m);
            let mark = line.len();
            let q = if i < loud { quiet } else { quiet - 1 };
            let r = self.vct_defend(depth - 1, q, no_counter, line);
            self.board.undo().ok();
            if let Some(d) = r {
                line.push(m);
                result = Some((m, d + 1));
                break;
            }
            line.truncate(mark);
            if self.budget.stopped() {
                return None;
            }
        }
        if !self.budget.stopped() {
            self.remember(key, depth, result);
        }
        result.map(|(_, d)| d)
    }

    /// Attacker moves of the VCT: fours first, then open threes (and 4-3, 3-3 cells).
    fn threat_moves(&self, me: Color, root: bool) -> SmallVec<[Pos; 32]> {
        // Below the root, threes must build on the attacker's last move (dependency, as in
        // db-search, approximated by locality); fours may come from anywhere.
        let last = if root {
            None
        } else {
            self.board.recent_move(1)
        };
        let mut moves: SmallVec<[Pos; 32]> = cells_at_least(self.board, me, Pattern4::HFlex3)
            .into_iter()
            .filter(|&p| {
                let class = self.board.p4(p, me);
                class < Pattern4::AFive
                    && (class >= Pattern4::EBlock4 || last.is_none_or(|l| l.distance(p) <= 4))
            })
            .collect();
        moves.sort_by_key(|&p| {
            let class = self.board.p4(p, me);
            let rank = match class {
                Pattern4::BFlex4 => 10,
                Pattern4::CBlock4Flex3 => 9,
                Pattern4::FFlex3x2 => 8,
                Pattern4::DBlock4Plus | Pattern4::EBlock4 => 6,
                _ => 4,
            };
            -(rank * 100 + self.board.cell(p).value[me.idx()] as i32)
        });
        moves
    }

    /// Append the attacker's quiet threats: cells with an open two or a closed three (but no
    /// three or four) after which, if the defender passed, a short VCF would win.
    fn push_quiet_threats(
        &mut self,
        me: Color,
        root: bool,
        answers: Option<&[Pos]>,
        moves: &mut SmallVec<[Pos; 32]>,
    ) {
        let last = if root {
            None
        } else {
            self.board.recent_move(1)
        };
        let mut quiet: SmallVec<[(Pos, i32); 16]> = SmallVec::new();
        let board = &*self.board;
        board.for_each_candidate(|p| {
            let class = board.p4(p, me);
            if class >= Pattern4::LFlex2
                && class < Pattern4::HFlex3
                && last.is_none_or(|l| l.distance(p) <= QUIET_REACH)
                && answers.is_none_or(|a| a.contains(&p))
            {
                quiet.push((p, board.cell(p).value[me.idx()] as i32));
            }
        });
        quiet.sort_by_key(|&(_, v)| -v);
        for (p, _) in quiet {
            self.board.play(p);
            let threat = self.pass_vcf(QUIET_THREAT_FOURS).is_some();
            self.board.undo().ok();
            if threat {
                moves.push(p);
            }
            if self.budget.stopped() {
                return;
            }
        }
    }

    /// The VCF the side that just moved would have if the side to move passed.
    fn pass_vcf(&mut self, max_fours: i32) -> Option<ProofLine> {
        let me = self.board.side_to_move();
        self.board.set_side_to_move(me.opp());
        let line = self.vcf(max_fours);
        self.board.set_side_to_move(me);
        line
    }

    /// Every reply that might stop the attacker's VCF `threat` (found after a pass): its
    /// cells, the cells where one of the defender's forced blocks along it would make him a
    /// four, and every four of the defender's own. Any other reply leaves `threat` winning:
    /// its fours and five cells are untouched and no block turns into a counter-four.
    fn threat_defences(&mut self, threat: &[Pos]) -> SmallVec<[Pos; 32]> {
        let me = self.board.side_to_move();
        let att = me.opp();
        let mut out: SmallVec<[Pos; 32]> = SmallVec::new();
        let add = |out: &mut SmallVec<[Pos; 32]>, p: Pos| {
            if !out.contains(&p) {
                out.push(p);
            }
        };
        for &p in threat {
            add(&mut out, p);
        }
        // Replay the forced part (four, block, four, block ...) to read the counter-fours.
        let forced = threat.len().saturating_sub(1) / 2;
        let mut played = 0;
        for i in 0..forced {
            let (a, d) = (threat[2 * i], threat[2 * i + 1]);
            if !self.board.is_empty(a) || !self.board.is_empty(d) {
                break;
            }
            self.board.play_as(a, att);
            self.board.play_as(d, me);
            played += 2;
            let board = &*self.board;
            scan_lines_by_dir(board, d, |dir, x| {
                if board.cell(x).line(dir, me.idx()) >= Pattern::B4 {
                    add(&mut out, x);
                }
            });
        }
        for _ in 0..played {
            self.board.undo().ok();
        }
        for p in cells_at_least(self.board, me, Pattern4::EBlock4) {
            add(&mut out, p);
        }
        out
    }

    /// Defender node: every reply must lose for the attacker's line to stand.
    fn vct_defend(
        &mut self,
        depth: i32,
        quiet: i32,
        no_counter: bool,
        line: &mut ProofLine,
    ) -> Option<i32> {
        if self.budget.tick() {
            return None;
        }
        let me = self.board.side_to_move();
        let att = me.opp();
        if !five_cells(self.board, me, 1).is_empty() {
            return None;
        }
        let att_fives = five_cells(self.board, att, 2);
        let replies: SmallVec<[Pos; 32]> = match att_fives.len() {
            // The defender's own VCF comes first: the attacker has no four to interrupt it.
            0 if !no_counter && self.vcf(COUNTER_VCF_FOURS).is_some() => return None,
            0 if self.board.count(att, Pattern4::BFlex4) > 0 => {
                defences(self.board).into_iter().collect()
            }
            0 => match self.pass_vcf(QUIET_THREAT_FOURS) {
                Some(threat) => self.threat_defences(&threat),
                None => return None,
            },
            1 => SmallVec::from_slice(&[att_fives[0]]),
            _ => {
                line.push(att_fives[1]);
                line.push(att_fives[0]);
                return Some(2);
            }
        };
        let mut longest = 0;
        let mut best_line: Option<ProofLine> = None;
        for r in replies {
            self.board.play(r);
            let mut sub = ProofLine::new();
            let res = self.vct_attack(depth, quiet, false, &mut sub);
            self.board.undo().ok();
            match res {
                None => return None,
                Some(d) => {
                    if d + 1 > longest || best_line.is_none() {
                        longest = d + 1;
                        sub.push(r);
                        best_line = Some(sub);
                    }
                }
            }
        }
        // Keep the line through the longest defence: the one the defender would choose.
        if let Some(sub) = best_line {
            line.extend(sub);
        }
        Some(longest)
    }
}

/// Five cells of `color` on the lines through `m` (the four it just made).
fn own_fives_after(board: &Board, m: Pos, color: Color) -> SmallVec<[Pos; 4]> {
    let mut out = SmallVec::new();
    scan_lines(board, m, |p| {
        if out.len() < 2
            && !out.contains(&p)
            && board.p4(p, color) == Pattern4::AFive
            && (board.rule().is_freestyle() || board.is_five(p, color))
        {
            out.push(p);
        }
    });
    out
}

/// Convenience for tests and the root: VCF of the side to move with a fresh budget.
pub fn find_vcf(
    board: &mut Board,
    tt: &mut TranspositionTable,
    budget: &mut Budget,
    max_fours: i32,
) -> Option<ProofLine> {
    ThreatSearch {
        board,
        tt,
        budget,
        checksum: true,
    }
    .vcf(max_fours)
}

/// Score of a proven win `dist` plies ahead, seen from `ply`.
pub fn win_score(ply: i32, dist: i32) -> Score {
    WIN - ply - dist
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::Budget;
    use crate::types::Rule;

    fn vct_key_of(moves: &[(usize, usize)]) -> MultiKey {
        let mut board = Board::new(15, Rule::FREESTYLE).expect("size");
        for &(x, y) in moves {
            board.play(Pos::new(x, y));
        }
        let mut tt = TranspositionTable::with_bytes(0);
        let mut budget = Budget::new(1, None);
        ThreatSearch {
            board: &mut board,
            tt: &mut tt,
            budget: &mut budget,
            checksum: true,
        }
        .vct_key(0, false)
    }

    /// Black: a closed three down column 7 (White caps it at (7,2)) and a stone at (10,6);
    /// White: a closed three on row 13 (one four to make) far away. Black to move.
    fn quiet_threat_board() -> Board {
        let mut board = Board::new(15, Rule::FREESTYLE).expect("size");
        for (x, y) in [(7, 3), (7, 4), (7, 5), (10, 6), (0, 13)] {
            board.play_as(Pos::new(x, y), Color::Black);
        }
        for (x, y) in [(7, 2), (1, 13), (2, 13), (3, 13), (12, 12)] {
            board.play_as(Pos::new(x, y), Color::White);
        }
        board.set_side_to_move(Color::Black);
        board
    }

    fn with_search<R>(board: &mut Board, f: impl FnOnce(&mut ThreatSearch) -> R) -> R {
        let mut tt = TranspositionTable::with_bytes(1 << 20);
        let mut budget = Budget::new(1_000_000, None);
        let mut ts = ThreatSearch {
            board,
            tt: &mut tt,
            budget: &mut budget,
            checksum: true,
        };
        f(&mut ts)
    }

    #[test]
    fn an_open_two_with_a_four_three_behind_it_is_a_quiet_threat() {
        let mut board = quiet_threat_board();
        let quiet = Pos::new(9, 6);
        let class = board.p4(quiet, Color::Black);
        assert!(
            class >= Pattern4::LFlex2 && class < Pattern4::HFlex3,
            "{class:?}"
        );
        let moves = with_search(&mut board, |ts| {
            let mut moves = SmallVec::new();
            ts.push_quiet_threats(Color::Black, true, None, &mut moves);
            moves
        });
        // (9,6) makes (7,6) a 4-3 cell; a cell far from Black's stones makes nothing.
        assert!(moves.contains(&quiet), "{moves:?}");
        assert!(!moves.contains(&Pos::new(12, 2)), "{moves:?}");
        assert_eq!(board.key(), quiet_threat_board().key());
    }

    #[test]
    fn a_quiet_threat_is_answered_on_its_vcf_line_or_by_a_counter_four() {
        let mut board = quiet_threat_board();
        board.play(Pos::new(9, 6));
        let (threat, replies) = with_search(&mut board, |ts| {
            let threat = ts.pass_vcf(QUIET_THREAT_FOURS).expect("a VCF after a pass");
            let replies = ts.threat_defences(&threat);
            (threat, replies)
        });
        // Four at (7,6), forced block (7,7), then (8,6) makes an open four on row 6.
        assert_eq!(
            threat[..3],
            [Pos::new(7, 6), Pos::new(7, 7), Pos::new(8, 6)]
        );
        let mut expected = vec![
            Pos::new(7, 6),
            Pos::new(7, 7),
            Pos::new(8, 6),
            Pos::new(6, 6),
            Pos::new(11, 6),
            // White's own fours on row 13.
            Pos::new(4, 13),
            Pos::new(5, 13),
        ];
        let mut got: Vec<Pos> = replies.to_vec();
        expected.sort_by_key(|p| p.index());
        got.sort_by_key(|p| p.index());
        assert_eq!(got, expected);
        // The board is back as it was, White to move.
        board.undo().expect("undo");
        assert_eq!(board.key(), quiet_threat_board().key());
    }

    #[test]
    fn a_move_that_threatens_nothing_is_no_vct_threat() {
        let mut board = quiet_threat_board();
        board.play(Pos::new(12, 2));
        let r = with_search(&mut board, |ts| {
            ts.vct_defend(6, 0, false, &mut ProofLine::new())
        });
        assert_eq!(r, None);
    }

    #[test]
    fn the_attacker_must_answer_a_defender_vcf_before_his_own_threes() {
        // White has an open three on row 10: were it his move he would win by fours, so a
        // Black move that neither blocks it nor makes a four only loses a tempo.
        let mut board = quiet_threat_board();
        for (x, y) in [(4, 10), (5, 10), (6, 10)] {
            board.play_as(Pos::new(x, y), Color::White);
        }
        board.set_side_to_move(Color::Black);
        let answers = with_search(&mut board, |ts| {
            let threat = ts.pass_vcf(COUNTER_VCF_FOURS).expect("White's open three");
            ts.threat_defences(&threat)
        });
        // (9,6), Black's quiet threat above, is no answer here.
        assert!(!answers.contains(&Pos::new(9, 6)), "{answers:?}");
        assert!(!answers.contains(&Pos::new(8, 6)), "{answers:?}");
        // A block next to White's three is, and so are Black's own fours.
        assert!(
            answers.contains(&Pos::new(3, 10)) || answers.contains(&Pos::new(7, 10)),
            "{answers:?}"
        );
        assert!(answers.contains(&Pos::new(7, 6)), "{answers:?}");
        assert!(answers.contains(&Pos::new(7, 7)), "{answers:?}");
    }

    #[test]
    fn vct_keys_of_positions_differing_in_the_last_attack_differ() {
        // Same stones but the attacker's last stone on another cell: different positions,
        // which the memo must never confuse.
        let a = vct_key_of(&[(7, 7), (0, 0), (8, 8), (0, 1), (9, 9), (0, 2)]);
        let b = vct_key_of(&[(7, 7), (0, 0), (8, 8), (0, 1), (6, 6), (0, 2)]);
        assert_ne!(a.hash, b.hash);
        assert_ne!(a.check, b.check);
        // The same position reached the same way has the same key.
        assert_eq!(
            a,
            vct_key_of(&[(7, 7), (0, 0), (8, 8), (0, 1), (9, 9), (0, 2)])
        );
    }
}
