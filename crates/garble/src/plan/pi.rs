//! π-cache slots (the non-default plan variant).

use super::*;

/// Decides which batches read their inner π values from the π cache and
/// compiles the π jobs and π slots (see `SlotProgram::with_pi_cache`).
///
/// A value read by two or more AND gates is worth caching: its π (the
/// garbler's two) is computed once instead of once per reader. A batch
/// takes the cached path when at least half of its input reads are such
/// values; its other inputs then get a one-off π slot (a store and a load
/// instead of AES in registers, which is why batches of mostly single-use
/// inputs, e.g. all of SHA-256, keep the plain kernel). A π slot lives
/// from the job that fills it to the last cached batch that reads it, and
/// is then reused (most recently freed first). Returns the π slot count,
/// the jobs and each AND's `[π slot of a, π slot of b]` (0 in plain batches).
pub(super) fn pi_slots(
    o: &Order,
    steps: &mut [Step],
    val: &dyn Fn(WireId) -> usize,
) -> (usize, Vec<[u32; 2]>, Vec<[u32; 2]>) {
    let mut fanout: std::collections::HashMap<usize, u32> = std::collections::HashMap::new();
    for g in &o.ands {
        *fanout.entry(val(g[0])).or_default() += 1;
        *fanout.entry(val(g[1])).or_default() += 1;
    }
    let multi = |v: usize| fanout.get(&v).is_some_and(|&n| n >= 2);
    // Decide, then find each value's last cached reader.
    let mut last: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    for (i, st) in steps.iter_mut().enumerate() {
        let gates = &o.ands[st.ands.0 as usize..st.ands.1 as usize];
        let reads = 2 * gates.len();
        let hits = gates
            .iter()
            .map(|g| multi(val(g[0])) as usize + multi(val(g[1])) as usize)
            .sum::<usize>();
        st.cached = reads > 0 && 2 * hits >= reads;
        if st.cached {
            for g in gates {
                last.insert(val(g[0]), i);
                last.insert(val(g[1]), i);
            }
        }
    }
    let mut pslot: std::collections::HashMap<usize, u32> = std::collections::HashMap::new();
    let mut free: Vec<u32> = Vec::new();
    let mut next = 0u32;
    let mut jobs = Vec::new();
    let mut and_pis = vec![[0u32; 2]; o.ands.len()];
    for (i, st) in steps.iter_mut().enumerate() {
        let j0 = jobs.len() as u32;
        if st.cached {
            let (a0, a1) = (st.ands.0 as usize, st.ands.1 as usize);
            for (k, g) in o.ands[a0..a1].iter().enumerate() {
                for half in 0..2 {
                    let v = val(g[half]);
                    let s = *pslot.entry(v).or_insert_with(|| {
                        let s = free.pop().unwrap_or_else(|| {
                            next += 1;
                            next - 1
                        });
                        // The label slot is filled in by `layout`'s caller
                        // below (it knows the slots); record the value.
                        jobs.push([v as u32, s]);
                        s
                    });
                    and_pis[a0 + k][half] = s;
                }
            }
            for g in &o.ands[a0..a1] {
                for &wire in &g[..2] {
                    let v = val(wire);
                    if last.get(&v) == Some(&i) {
                        if let Some(s) = pslot.remove(&v) {
                            free.push(s);
                        }
                    }
                }
            }
        }
        st.pis = (j0, jobs.len() as u32);
    }
    (next as usize, jobs, and_pis)
}
