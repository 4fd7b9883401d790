//! VCF: victory by continuous fours. Every attacker move is a four, so the defender's
//! reply is forced and the tree is narrow; it is the root's first try and, with its fours
//! kept near each other (`vcf_local`), the alpha-beta's quiescence search.

use super::forced::retain_legal;
use super::{Entry, ProofLine, ThreatSearch, QVCF_SALT, VCF_SALT};
use crate::board::{cells_at_least, scan_lines, Board, MultiKey};
use crate::eval::pattern::Pattern4;
use crate::types::{Color, Pos};
use smallvec::SmallVec;

impl ThreatSearch<'_> {
    /// Search for a VCF of the side to move up to `max_fours` fours. On success returns the
    /// proof line (attacker's first move first).
    pub fn vcf(&mut self, max_fours: i32) -> Option<ProofLine> {
        let mut line = ProofLine::new();
        self.vcf_node(max_fours, &mut line).map(|_| {
            line.reverse();
            line
        })
    }

    /// The alpha-beta's horizon VCF: as `vcf`, but every four after the first must stand
    /// near the attacker's previous four (`Pos::near_square2_line4`), as in Rapfi's
    /// quiescence (a four that also blocks the defender's five is the only move, and always
    /// tried).
    /// A real VCF nearly always goes on near its last four, so this loses few wins and
    /// cuts most of the fours a failing search tries (`split_vcf_board` in the tests is a
    /// win it misses; the root's VCF and the safety net still search in full).
    pub fn vcf_local(&mut self, max_fours: i32) -> Option<ProofLine> {
        self.local_below = Some(max_fours);
        let found = self.vcf(max_fours);
        self.local_below = None;
        found
    }

    /// The table salt of this VCF's results: the local search's are kept apart.
    fn vcf_salt(&self) -> MultiKey {
        if self.local_below.is_some() {
            QVCF_SALT
        } else {
            VCF_SALT
        }
    }

    /// One attacker node of the VCF; returns the number of plies to the five.
    pub(super) fn vcf_node(&mut self, depth: i32, line: &mut ProofLine) -> Option<i32> {
        let (me, opp_five) = match self.attacker_entry(depth, line) {
            Entry::Won => return Some(1),
            Entry::Failed => return None,
            Entry::Open(me, opp_five) => (me, opp_five),
        };
        let key = self.key(self.vcf_salt());
        if let Some(known) = self.tt.recall_proof(key, depth) {
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
            None => self.four_moves(me, depth),
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
            self.tt.store_proof(key, depth, result);
        }
        result.map(|(_, d)| d)
    }

    /// The attacker's four-making cells (at a local search's inner nodes only those near
    /// the attacker's previous four), strongest class first.
    fn four_moves(&self, me: Color, depth: i32) -> SmallVec<[Pos; 32]> {
        let last = self.board.recent_move(1);
        let local = match (self.local_below, last) {
            (Some(top), Some(l)) if depth < top => Some(l),
            _ => None,
        };
        let mut moves: SmallVec<[Pos; 32]> = cells_at_least(self.board, me, Pattern4::EBlock4)
            .into_iter()
            .filter(|&p| self.board.p4(p, me) < Pattern4::AFive)
            .filter(|&p| local.is_none_or(|l| l.near_square2_line4(p)))
            .collect();
        retain_legal(self.board, me, &mut moves);
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
            // The defender may not block there (black under renju): the five comes next.
            1 if self.board.is_forbidden_for(fives[0], me.opp()) => {
                line.push(fives[0]);
                Some(3)
            }
            1 => {
                let block = fives[0];
                self.tt
                    .prefetch(self.board.key_after(block).with(self.vcf_salt()));
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
