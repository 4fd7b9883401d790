//! VCT: victory by continuous threats. The attacker plays fours, open threes and (when
//! those find nothing) quiet threats; the defender tries every answer that might stop
//! the threat, and each must lose for the line to stand.

use super::forced::{open_four_threat, retain_legal};
use super::{
    defences, Entry, ProofLine, ThreatSearch, COUNTER_VCF_FOURS, LAST_MOVE_MIX, QUIET_THREATS,
    QUIET_THREAT_FOURS, VCT_SALT,
};
use crate::board::MultiKey;
use crate::board::{cells_at_least, five_cells};
use crate::eval::pattern::Pattern4;
use crate::types::{Color, Pos};
use smallvec::SmallVec;

impl ThreatSearch<'_> {
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
    pub(super) fn vct_key(&self, quiet: i32, root: bool) -> MultiKey {
        let mut key = self.key(VCT_SALT);
        key.hash ^= (quiet as u64).wrapping_mul(LAST_MOVE_MIX.check);
        if !root {
            if let Some(last) = self.board.recent_move(1) {
                let cell = last.index() as u64 + 1;
                key.hash ^= cell.wrapping_mul(LAST_MOVE_MIX.hash).rotate_left(29);
                key.check ^= cell.wrapping_mul(LAST_MOVE_MIX.check).rotate_left(31);
            }
        }
        key
    }

    pub(super) fn vct_attack(
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
        if let Some(known) = self.tt.recall_proof(key, depth) {
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
            let answers = self.pass_threat_defences(COUNTER_VCF_FOURS);
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
            self.tt.store_proof(key, depth, result);
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
        retain_legal(self.board, me, &mut moves);
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

    /// Defender node: every reply must lose for the attacker's line to stand.
    pub(super) fn vct_defend(
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
        let mut replies: SmallVec<[Pos; 32]> = match att_fives.len() {
            // The defender's own VCF comes first: the attacker has no four to interrupt it.
            0 if !no_counter && self.vcf(COUNTER_VCF_FOURS).is_some() => return None,
            0 if open_four_threat(self.board, att) => defences(self.board).into_iter().collect(),
            0 => self.pass_threat_defences(QUIET_THREAT_FOURS)?,
            1 => SmallVec::from_slice(&[att_fives[0]]),
            _ => {
                line.push(att_fives[1]);
                line.push(att_fives[0]);
                return Some(2);
            }
        };
        // A defender left with only forbidden answers (black under renju) has lost.
        retain_legal(self.board, me, &mut replies);
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
