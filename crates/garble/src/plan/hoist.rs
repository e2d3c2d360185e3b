//! Moving a layer piece's first-stage XORs under the previous piece's AES.

/// Roots a stage may hold, counting those moved into it by [`hoist`]: the
/// garbler's densest feed runs 20 gates under one group (the evaluator's
/// 10). A/B with 0, 10 and 20 under load ~2: 20 best on both circuits.
pub(super) const HOIST_ROOM: usize = 20;

/// Moves the roots due before the first group of a layer piece that do
/// not read the previous group's outputs into the previous piece, so that
/// they run under its AES (`garble_stages` feeds a stage's XORs to the
/// previous group) instead of unfed at the start of their own piece, where
/// nothing hides them (all of SHA-256's 1–2-stage pieces): into the stage
/// of the previous piece's last group (fed under the group before it) if
/// they read neither of those two groups' outputs and the stage has room
/// ([`HOIST_ROOM`]), else into a new AND-less stage after the last group.
/// The moved roots belong to the earlier piece for slot release, which
/// keeps `layout`'s guarantees: they take their output slots after the
/// group they run under took its own, and the piece's AND inputs are not
/// freed before it ends. Returns the new groups, pieces of groups (with the
/// final sentinel) and root deadlines.
#[allow(clippy::type_complexity)]
pub(super) fn hoist(
    groups: &[(u32, u32)],
    piece_of: &[usize],
    deadline: &[u32],
    roots: &[(Vec<u32>, u32)],
    order: &[u32],
    and_group: &[u32],
    root_of: &[u32],
) -> (Vec<(u32, u32)>, Vec<usize>, Vec<u32>) {
    let ng = groups.len();
    let starts = |d: usize| d > 0 && d < ng && piece_of[d] != piece_of[d - 1];
    // 0: not moved; 1: into the new stage after the last group; 2: into
    // the last group's own stage (fed under the group before it).
    let mut hoisted = vec![0u8; roots.len()];
    let mut any = vec![false; ng];
    let mut room = vec![0usize; ng];
    for &d in deadline {
        if let Some(n) = room.get_mut(d as usize) {
            *n += 1;
        }
    }
    for n in &mut room {
        *n = HOIST_ROOM.saturating_sub(*n);
    }
    // In deadline order (stable, so plan order within a deadline): a root
    // is decided after every root it reads.
    for &r in order {
        let r = r as usize;
        let d = deadline[r] as usize;
        if !starts(d) {
            continue;
        }
        let l = d - 1;
        let ok = roots[r].0.iter().all(|&x| {
            let x = x as usize;
            and_group[x] != l as u32
                && match root_of[x] {
                    u32::MAX => true,
                    q => deadline[q as usize] < d as u32 || hoisted[q as usize] > 0,
                }
        });
        if !ok {
            continue;
        }
        let early = l > 0
            && piece_of[l - 1] == piece_of[l]
            && room[l] > 0
            && roots[r].0.iter().all(|&x| {
                let x = x as usize;
                and_group[x] != (l - 1) as u32
                    && match root_of[x] {
                        u32::MAX => true,
                        q => deadline[q as usize] <= l as u32 || hoisted[q as usize] == 2,
                    }
            });
        if early {
            hoisted[r] = 2;
            room[l] -= 1;
        } else {
            hoisted[r] = 1;
            any[d] = true;
        }
    }
    let mut new_groups = Vec::with_capacity(ng + any.iter().filter(|&&a| a).count());
    let mut new_piece = Vec::with_capacity(new_groups.capacity() + 1);
    let mut new_idx = vec![0u32; ng + 1];
    for gi in 0..ng {
        if any[gi] {
            let e = groups[gi - 1].1;
            new_groups.push((e, e));
            new_piece.push(piece_of[gi - 1]);
        }
        new_idx[gi] = new_groups.len() as u32;
        new_groups.push(groups[gi]);
        new_piece.push(piece_of[gi]);
    }
    new_idx[ng] = new_groups.len() as u32;
    new_piece.push(piece_of[ng]);
    let new_deadline = deadline
        .iter()
        .zip(&hoisted)
        .map(|(&d, &h)| match h {
            0 => new_idx[d as usize],
            1 => new_idx[d as usize] - 1,
            _ => new_idx[d as usize - 1],
        })
        .collect();
    (new_groups, new_piece, new_deadline)
}
