//! Setup with given seeds and public seed images (JIMU's wire-seed images
//! C_j and double hashes D_i), and the replay of random messages from the
//! systematic seeds.

mod common;
use brickyard_core::prg::Prg;
use brickyard_core::Block;
use brickyard_ihash::{replay_random, Params, Receiver, SeedImages, Sender};
use zeroize::Zeroizing;

fn image(s: Block) -> [u8; 32] {
    let mut out = [0u8; 32];
    out[..16].copy_from_slice(&s.to_bytes());
    out[16..].copy_from_slice(&(s ^ Block(0x5a5a)).to_bytes());
    out.reverse();
    out
}

const IMAGES: SeedImages = SeedImages {
    image,
    check: "ihash-seed-image",
};

#[test]
fn images_arrive_and_given_seeds_are_used_and_replayed() {
    let p = Params::for_permutation_strings(40).unwrap();
    let seed = 0x5eed1_u128;
    println!("seed {seed:#x}");
    let given: Vec<Block> = (0..p.n as u128).map(|i| Block(i * 7 + 1)).collect();
    let g2 = given.clone();
    let (a, b) = common::run(
        move |ch| {
            let mut prg = Prg::from_seed(Block(seed));
            let mut s =
                Sender::setup_with_seeds(ch, &mut prg, p, Some(Zeroizing::new(g2)), Some(IMAGES))
                    .unwrap();
            let m1 = s.hash_random(ch, 37).unwrap();
            let m2 = s.hash_random(ch, 1500).unwrap();
            (s.seed_images().to_vec(), m1, m2)
        },
        move |ch| {
            let mut prg = Prg::from_seed(Block(seed + 1));
            let mut r = Receiver::setup_with_images(ch, &mut prg, p, Some(IMAGES)).unwrap();
            let h1 = r.hash_random(ch, &mut prg, 37).unwrap();
            let h2 = r.hash_random(ch, &mut prg, 1500).unwrap();
            (r.seed_images().to_vec(), r.verifier().clone(), h1, h2)
        },
    );
    let (sent, m1, m2) = a;
    let (got, v, h1, h2) = b;
    assert_eq!(sent.len(), p.n);
    assert_eq!(sent, got);
    for (j, s) in given.iter().enumerate() {
        assert_eq!(sent[j], image(*s), "image of seed {j}");
    }
    for (h, m) in h2.iter().zip(m2.iter()) {
        assert!(v.verify(h, m));
    }
    let _ = h1;
    // Replay from the ℓ systematic seeds alone gives the same messages,
    // across batches whose lengths are not multiples of 16.
    let replay = replay_random(&p, &given[..p.ell], &[37, 1500]);
    assert_eq!(replay[0], m1);
    assert_eq!(replay[1], m2);
    let wrong = replay_random(&p, &given[1..=p.ell], &[37]);
    assert_ne!(wrong[0], m1);
}

#[cfg(feature = "adversary")]
#[test]
fn a_wrong_image_is_caught_exactly_when_its_seed_is_watched() {
    use brickyard_core::Error;
    let p = Params::for_labels(88, 40).unwrap();
    let bob_seed = 0xb0b_u128;
    println!("bob seed {bob_seed:#x}");
    let setup = move |bad: Option<usize>| {
        common::run(
            move |ch| {
                let mut prg = Prg::new();
                let cheat = bad.map(|position| brickyard_ihash::Cheat::SenderBadImage { position });
                Sender::setup_with_seeds_cheat(ch, &mut prg, p, None, Some(IMAGES), cheat)
                    .map(|_| ())
            },
            move |ch| {
                let mut prg = Prg::from_seed(Block(bob_seed));
                Receiver::setup_with_images(ch, &mut prg, p, Some(IMAGES))
                    .map(|r| r.verifier().watch().to_vec())
            },
        )
    };
    let (_, w) = setup(None);
    let watch = w.unwrap();
    let mut caught = 0;
    for pos in [0, 1, 5, 20, 31, 32, 40, 60, 85]
        .into_iter()
        .chain(watch.iter().copied().take(3))
    {
        let (a, b) = setup(Some(pos));
        match b {
            Err(Error::Cheating { check }) => {
                assert_eq!(check, "ihash-seed-image");
                assert!(watch.contains(&pos), "caught an unwatched position {pos}");
                assert!(a.is_err(), "Alice learns of the abort");
                caught += 1;
            }
            Ok(w) => {
                assert_eq!(w, watch);
                assert!(!watch.contains(&pos), "missed watched position {pos}");
            }
            Err(e) => panic!("unexpected {e}"),
        }
    }
    assert!(caught >= 3);
}
