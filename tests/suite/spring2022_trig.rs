//! Spring Challenge 2022: sine and cosine are the JVM's (D-spring-14), `Math.sin` and `Math.cos`
//! as OpenJDK 17's HotSpot computes them on x86-64, to the last bit. Two references, both made
//! outside shinpan:
//!
//! - `tests/fixtures/trig/hotspot17-sin-cos.bin.gz`: 108,031 angles with the bits of the sine
//!   and cosine a real JVM gave for each (`make_jvm_fixture.sh` and `TrigFixture.java` beside
//!   it; interpreted and compiled code agree). The angles: redirect angles and spawn deltas drawn
//!   as the referee draws them, the angles of the table below, multiples of π/2 and their
//!   neighbours, random bit patterns of every exponent, subnormals, the edges of the stub's
//!   paths, zeros, the largest doubles, NaN and the infinities. The test reads the file, so it
//!   needs no JVM.
//! - [`REFERENCE`]: sin and cos of 455 angles, each the exact value rounded to the nearest `f64`
//!   (`tests/fixtures/trig/make_reference.py`, mpmath at 400 bits): the 118 random-redirect
//!   angles of the project's referee recordings, the near-tie of D-spring-14, more redirect
//!   angles and spawn deltas, the neighbours of multiples of π/2, large and tiny arguments, and
//!   the angles whose value lies nearest a tie. The JVM gives the correctly rounded value for all
//!   but the 15 values of [`NOT_CORRECTLY_ROUNDED`], each a unit away; the list is checked both
//!   ways.

use std::io::Read;

use shinpan::games::spring2022::trig::{cos, sin};

const JVM_FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/trig/hotspot17-sin-cos.bin.gz"
);

/// One angle of the JVM fixture: its bits, and the bits of the JVM's sine and cosine of it.
struct Printed {
    angle: u64,
    sin: u64,
    cos: u64,
}

/// The fixture: gzip-compressed, three little-endian `u64` an angle.
fn jvm_fixture() -> Vec<Printed> {
    let file = std::fs::File::open(JVM_FIXTURE).unwrap_or_else(|e| panic!("{JVM_FIXTURE}: {e}"));
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(file)
        .read_to_end(&mut bytes)
        .unwrap_or_else(|e| panic!("{JVM_FIXTURE}: {e}"));
    assert!(
        bytes.len() % 24 == 0,
        "{JVM_FIXTURE}: {} bytes, not a whole number of 24-byte records",
        bytes.len()
    );
    let word = |record: &[u8], i: usize| {
        let mut le = [0u8; 8];
        le.copy_from_slice(&record[8 * i..8 * i + 8]);
        u64::from_le_bytes(le)
    };
    bytes
        .chunks_exact(24)
        .map(|record| Printed {
            angle: word(record, 0),
            sin: word(record, 1),
            cos: word(record, 2),
        })
        .collect()
}

/// The same bits, or both NaN: Rust does not promise which NaN an operation gives, and the game
/// never takes the sine of a NaN or an infinity.
fn same(ours: f64, theirs: u64) -> bool {
    ours.to_bits() == theirs || (ours.is_nan() && f64::from_bits(theirs).is_nan())
}

#[test]
fn sine_and_cosine_are_what_the_jvm_printed() {
    let printed = jvm_fixture();
    let mut differences = 0;
    let mut first = None;
    for p in &printed {
        let angle = f64::from_bits(p.angle);
        for (name, ours, theirs) in [("sin", sin(angle), p.sin), ("cos", cos(angle), p.cos)] {
            if !same(ours, theirs) {
                differences += 1;
                first.get_or_insert_with(|| {
                    format!(
                        "{name}({angle:e} = {:#018x}): ours {:#018x}, the JVM's {theirs:#018x}",
                        p.angle,
                        ours.to_bits()
                    )
                });
            }
        }
    }
    println!(
        "checked sin and cos of {} angles against HotSpot 17's: {differences} differ",
        printed.len()
    );
    if let Some(first) = first {
        panic!(
            "{differences} of {} values differ from the JVM's; the first: {first}",
            2 * printed.len()
        );
    }
}

#[test]
fn the_jvm_fixture_covers_what_the_game_draws_and_every_path() {
    let printed = jvm_fixture();
    assert!(printed.len() >= 100_000, "{} angles", printed.len());
    let angles: Vec<f64> = printed.iter().map(|p| f64::from_bits(p.angle)).collect();
    let in_play = angles
        .iter()
        .filter(|a| (-std::f64::consts::PI..3.0 * std::f64::consts::PI).contains(*a))
        .count();
    assert!(in_play >= 80_000, "{in_play} angles in the game's range");
    let near_tie = 5.351331711629952f64.to_bits();
    assert!(printed.iter().any(|p| p.angle == near_tie));
    for row in REFERENCE {
        assert!(printed.iter().any(|p| p.angle == row.0), "{:#018x}", row.0);
    }
    let count = |keep: fn(f64) -> bool| angles.iter().filter(|&&a| keep(a)).count();
    assert!(count(|a| a.abs() >= 90112.0 && a.is_finite()) >= 5_000);
    assert!(count(|a| a.abs() < 2f64.powi(-252)) >= 1_000);
    assert!(count(|a| a != 0.0 && a.abs() < f64::MIN_POSITIVE) >= 1_000);
    assert!(count(|a| a.abs() == f64::MAX) == 2);
    assert!(count(f64::is_nan) >= 1 && count(f64::is_infinite) == 2);
}

/// Where the JVM's value is not the correctly rounded one: (angle, sine or cosine, the JVM's bits,
/// as in the fixture). Each is one unit in the last place from the value in [`REFERENCE`], whose
/// exact value lies near a tie between the two.
const NOT_CORRECTLY_ROUNDED: &[(u64, &str, u64)] = &[
    (0x401567c3800dfe4f, "sin", 0xbfe9afefea7eb1e8),
    (0x3ff1503032d3c03d, "cos", 0x3fde0c36262b96dc),
    (0x400ede1858174d73, "sin", 0xbfe5064415dcba41),
    (0x3fe1fafb78829554, "sin", 0x3fe10c91f1a43bc0),
    (0x40228228ed6bceed, "sin", 0x3fc5b9d59e03953c),
    (0x4015209b907a1a71, "sin", 0xbfeaf34371b4c7ec),
    (0x401f4163878178aa, "sin", 0x3feff967f82604fe),
    (0x401a2d6475b68c03, "sin", 0x3fd0861b2b8eef8b),
    (0x40141909f5f6edca, "sin", 0xbfee745823265d0a),
    (0x400828cf0e347879, "sin", 0x3fbf11e088866f2b),
    (0x3fd3f5555b68a7f6, "sin", 0x3fd3a2ebed1334d6),
    (0x4020b070dc44b8fd, "cos", 0xbfde27d50115bb02),
    (0x4012ce8c7a9ce44b, "cos", 0xbf85dfedea089e52),
    (0x400bf3d7e6ce1650, "cos", 0xbfee0860141cb07a),
    (0x3ff0904614a661fb, "cos", 0x3fe054a82cc987e0),
];

#[test]
fn the_jvm_is_correctly_rounded_but_near_ties() {
    let mut unlisted = Vec::new();
    let mut listed_seen = Vec::new();
    for &(x, exact_sin, exact_cos) in REFERENCE {
        let angle = f64::from_bits(x);
        for (name, ours, exact) in [
            ("sin", sin(angle), exact_sin),
            ("cos", cos(angle), exact_cos),
        ] {
            let listed = NOT_CORRECTLY_ROUNDED
                .iter()
                .find(|&&(a, n, _)| a == x && n == name);
            match listed {
                Some(&(_, _, jvm)) => {
                    listed_seen.push((x, name));
                    assert_eq!(ours.to_bits(), jvm, "{name}({angle:e} = {x:#018x})");
                    assert_eq!(
                        ours.to_bits().abs_diff(exact),
                        1,
                        "{name}({angle:e} = {x:#018x}) is listed as a unit from {exact:#018x}"
                    );
                }
                None if !same(ours, exact) => unlisted.push(format!(
                    "{name}({angle:e} = {x:#018x}): {:#018x}, exact {exact:#018x}",
                    ours.to_bits()
                )),
                None => {}
            }
        }
    }
    assert!(
        unlisted.is_empty(),
        "values not correctly rounded and not listed:\n{}",
        unlisted.join("\n")
    );
    assert_eq!(
        listed_seen.len(),
        NOT_CORRECTLY_ROUNDED.len(),
        "listed values not in the reference table: {:?}",
        NOT_CORRECTLY_ROUNDED
            .iter()
            .filter(|&&(a, n, _)| !listed_seen.contains(&(a, n)))
            .collect::<Vec<_>>()
    );
}

#[test]
fn the_reference_covers_what_the_game_draws() {
    // At least the recorded redirect angles, in [0, 3π), and the large and tiny arguments.
    assert!(REFERENCE.len() >= 300, "{}", REFERENCE.len());
    let angles: Vec<f64> = REFERENCE.iter().map(|r| f64::from_bits(r.0)).collect();
    let in_play = angles
        .iter()
        .filter(|a| (0.0..3.0 * std::f64::consts::PI).contains(*a))
        .count();
    assert!(in_play >= 250, "{in_play}");
    assert!(angles.iter().any(|a| a.abs() > 1e300));
    assert!(angles.iter().any(|a| a.abs() < 1e-300));
}

/// (x, sin x, cos x) as bits, computed by tests/fixtures/trig/make_reference.py.
const REFERENCE: &[(u64, u64, u64)] = &[
    (0x3f7107a16b9b83e2, 0x3f71079e3475d0bb, 0x3fefffeddfc70dcb),
    (0x3fc51802f7c5cc24, 0x3fc4ff9a5c79a905, 0x3fef9103b4031ff1),
    (0x3fc6ceb637c0e1b5, 0x3fc6afdd6de69b23, 0x3fef7e4c6e4cf73f),
    (0x3fcda626218d7093, 0x3fcd62751673e5ba, 0x3fef2536fad943ad),
    (0x3fcfd829858a8559, 0x3fcf8453de3ee8f1, 0x3fef03c9e83c27cc),
    (0x3fd0361547ee924e, 0x3fd009d89a4dce57, 0x3feefa98ddf024f5),
    (0x3fd9875d5247bc60, 0x3fd8db6e217661e7, 0x3fed7ce0aa6e7018),
    (0x3fdeff6d67a576f8, 0x3fddccca5991c5e9, 0x3fec51c6ace473fe),
    (0x3fe407e607c1fe46, 0x3fe2bf852335ae9a, 0x3fe9eec90da0ec22),
    (0x3fe4ed5c79f44081, 0x3fe37791bc2974ab, 0x3fe965c2eae25212),
    (0x3fe6b20b97064166, 0x3fe4d70fea8c5ab5, 0x3fe84896b7ef8a5c),
    (0x3fe79451fe9e8cea, 0x3fe580b770711384, 0x3fe7b2dfbb972828),
    (0x3fe86636d8f67dc4, 0x3fe61a564f47acdb, 0x3fe723db74caa68b),
    (0x3fe936709b252315, 0x3fe6af1116197e8a, 0x3fe69222774ec417),
    (0x3feba21a84292ae6, 0x3fe8531e0acdd2cc, 0x3fe4cac4f3ab976b),
    (0x3febfa054ee10cb0, 0x3fe88be1cb1ed3f8, 0x3fe487a25b865c58),
    (0x3fec25bb3c506ce6, 0x3fe8a7d5d5ba6447, 0x3fe46607ba203b53),
    (0x3fec3fa5ebe44fb6, 0x3fe8b8530de6ec4b, 0x3fe452091a04fe01),
    (0x3fee6fcba7879d54, 0x3fea0cf5ed1f485f, 0x3fe2958094d0bc7f),
    (0x3fefa9f9fcd2603f, 0x3feabe78f0481e86, 0x3fe1924c220f7db0),
    (0x3ff1503032d3c03d, 0x3fec4100ce0def77, 0x3fde0c36262b96dd),
    (0x3ff205c4a824a10c, 0x3fece457cff255b6, 0x3fdb83923d40994d),
    (0x3ff3b806d79111b9, 0x3fee2f7ea0794fa0, 0x3fd53ea2d73e27ab),
    (0x3ff3f778b553bc29, 0x3fee58afcc4be9b0, 0x3fd44e9a9d2c97c5),
    (0x3ff46d74e511d9e7, 0x3feea05390752915, 0x3fd28cf4b7204ccc),
    (0x3ff4d9bb4e6b5842, 0x3feedc5903d67679, 0x3fd0ecd65fe37f62),
    (0x3ff5fad59ff5bacb, 0x3fef6175aba8c10a, 0x3fc90f780729f838),
    (0x3ff6f8a5c340f6b6, 0x3fefb55ce91e9822, 0x3fc13d38d537767e),
    (0x3ff6fe9b6c7f28f1, 0x3fefb6f5aa6195bc, 0x3fc10df98df12408),
    (0x3ff74b03ad7822cd, 0x3fefc9e81fd2f58a, 0x3fbd5ee286851d4e),
    (0x3ff98be3e5e5a355, 0x3feffd430053adb3, 0xbf9a796310cb13c5),
    (0x3ffb1f4c377d2378, 0x3fefc0c034e2ed4a, 0xbfbfc012764e0d98),
    (0x3ffbf2ab1742e34d, 0x3fef8185d6cb8f62, 0xbfc667ca60f4c3c4),
    (0x3ffc5ea26e5d31cb, 0x3fef58ed973da83e, 0xbfc9b81800c28ee9),
    (0x3ffccd47ddf6e5b5, 0x3fef298a920f1b3b, 0xbfcd18b4159f2c7c),
    (0x3ffeab36a63499d9, 0x3fee1a814d37b333, 0xbfd5b47d43e1dc27),
    (0x400011f234f6ef4c, 0x3fecface58183971, 0xbfdb246ee7b47c38),
    (0x4000c64f2073b4ba, 0x3febac7bb57d7c27, 0xbfe0114438f107cf),
    (0x4000c7219ee837a9, 0x3febaad4ccda0e1c, 0xbfe0141c4854f28a),
    (0x40010c3d6810501d, 0x3feb1bee03a721b4, 0xbfe100ba50083090),
    (0x4001775b7465cba7, 0x3fea2ee16f882cfb, 0xbfe26597849868c5),
    (0x4003740d4d99fb34, 0x3fe4db5dd844ff73, 0xbfe844e4620fc002),
    (0x4003e89db279e930, 0x3fe3714c60dbf23a, 0xbfe96a90300a8c4e),
    (0x4004c0b11119fa8f, 0x3fe0a86a485206e1, 0xbfeb528aed06f02e),
    (0x4005a6dc25d6ab78, 0x3fdafa2469636e75, 0xbfed04abf7580e6b),
    (0x400654cbea2fca49, 0x3fd5f4eeb485f787, 0xbfee0ed011ede370),
    (0x4006877021e4b2c8, 0x3fd476b59200ff06, 0xbfee51f2d44ea239),
    (0x40072457a0976b14, 0x3fcf8655437fcd96, 0xbfef03a94bd19b93),
    (0x400763dfbb95ebe0, 0x3fcba969c5ac5fb1, 0xbfef3e6b5f1b2eda),
    (0x40082361065e583f, 0x3fbfbe517d97a11b, 0xbfefc0c7386d0586),
    (0x4008756e4e2b06cc, 0x3fb58b18fe691153, 0xbfefe2f0f37ade3e),
    (0x400895751bda390d, 0x3fb18d3ff65002da, 0xbfefecb92abf3d4d),
    (0x4008d459b09b9e8c, 0x3fa3673857b8a9ee, 0xbfeffa1d858dcade),
    (0x40090c91ab6654bb, 0x3f85698f4ca6236a, 0xbfefff8d5ff05822),
    (0x400930471c5a0855, 0xbf7c9780f4085fae, 0xbfefffcce7f94982),
    (0x4009b0a66e90b24c, 0xbfb1d1b23bce3e47, 0xbfefec217dd5ecd4),
    (0x400a5769e3d5e3cf, 0xbfc3441849c8002d, 0xbfefa2ac7ae0d2fb),
    (0x400a6931381335cb, 0xbfc45d1f77cc8474, 0xbfef97aa3616932c),
    (0x400b2388ef17d237, 0xbfcfc30224598c48, 0xbfeeffca900f9962),
    (0x400b9917c506563d, 0xbfd3695bb435e0b6, 0xbfee7e1a32e04ade),
    (0x400c002df51a9bf5, 0xbfd67493c95cee7c, 0xbfedf73385d17a1a),
    (0x400c103960d24572, 0xbfd6ec98ac55bb9a, 0xbfede072b5cd84b5),
    (0x400c3de0924d1b81, 0xbfd8401a06d569cc, 0xbfed9d24a9a3febf),
    (0x400c985209c4cd6f, 0xbfdad76c96471af1, 0xbfed0cb752dfde81),
    (0x400cbb96d7f2fb60, 0xbfdbd6877851e91c, 0xbfecd0731c5e3862),
    (0x400cbc3c5e297488, 0xbfdbdb2fbe65b2ef, 0xbfeccf53066e6022),
    (0x400e883f696edc82, 0xbfe3febd7cd93d9f, 0xbfe8fbe2eb6fa3dd),
    (0x400ebfece2a5a861, 0xbfe4aab5410bd840, 0xbfe86e61599cc8e4),
    (0x400f3bff2e4df3d8, 0xbfe61babfe4dc685, 0xbfe72295038f50ec),
    (0x400f645b6133de75, 0xbfe68f4841e2d395, 0xbfe6b1e74cdba097),
    (0x400fcbb93e823774, 0xbfe7ad0a6e51f9cf, 0xbfe587237db83a77),
    (0x401004edec35daea, 0xbfe8516e3bc8bd64, 0xbfe4ccbdf6ac9223),
    (0x4010295aaa52eb0f, 0xbfe90adbfccaae26, 0xbfe3ebf9a48782b7),
    (0x40103ec5d335352a, 0xbfe9741f9211134d, 0xbfe364c6a8b22502),
    (0x4010e3bb17e4c4ad, 0xbfec3c1679214634, 0xbfde1eabb817a676),
    (0x4010ec6425144f35, 0xbfec5c6f57ce083c, 0xbfdda42295f1d13f),
    (0x40114e2261ade7f0, 0xbfeda4fcbdd0fcab, 0xbfd819a5a561275c),
    (0x40118e94e857f7c9, 0xbfee57fbaae46d82, 0xbfd452cedcf8db6c),
    (0x4011cf1fcbf2042c, 0xbfeeec6a5eb01093, 0xbfd075e55514eab4),
    (0x4011dc63cab1c5fb, 0xbfef070b9b0befe5, 0xbfcf50e083c7d31f),
    (0x4011f2cd300d9b1a, 0xbfef3101333e6b64, 0xbfcc97a20706143e),
    (0x4011ff1f6911c1d4, 0xbfef4671bfaa5c20, 0xbfcb16cc0ed4e305),
    (0x40126660c5e30681, 0xbfefcc4c06c95442, 0xbfbcb76d06702c0c),
    (0x4012a592623661b0, 0xbfeff579761e8e07, 0xbfa9f235dc362849),
    (0x4012a80f7eac9417, 0xbfeff67590caef74, 0xbfa8b40b77c74d2b),
    (0x4012cbb907c88a95, 0xbfefff42915aefc9, 0xbf8b86b883b8e5f0),
    (0x401355de3d5b510a, 0xbfefc3a42d97ef20, 0x3fbf04e00fe0c810),
    (0x401358d40c3f26ef, 0xbfefc0bce740b65f, 0x3fbfc0e5e095c8b9),
    (0x40136dabea95e170, 0xbfefaa5f6e6bb483, 0x3fc27564e7c2c493),
    (0x4013959df032e2fd, 0xbfef76224eb941da, 0x3fc7625ec7e59653),
    (0x4014315a55cfb3da, 0xbfee366ec9d89ec8, 0x3fd5170ac3d49975),
    (0x4014400ee5284ea8, 0xbfee0edea3f4ff9b, 0x3fd5f49eeae57915),
    (0x4014e2d9c9e92179, 0xbfebf0f09cde5015, 0x3fdf32110bc472a6),
    (0x40151a8ecb84a791, 0xbfeb0d3d0359cdd6, 0x3fe118107096a846),
    (0x4015c1d0243936f6, 0xbfe7e9799426d66f, 0x3fe543eee7228a85),
    (0x4015e06fcda369d5, 0xbfe743f4bfc35f6c, 0x3fe5f88a450c8ffc),
    (0x4015f46ce6a5ceba, 0xbfe6d5094bae5bdf, 0x3fe66bb8f6972dd7),
    (0x401633cc2cabcb89, 0xbfe566dc2106c1ff, 0x3fe7ca3c13d2f3c1),
    (0x40165d9363021c5e, 0xbfe469e4df574fb4, 0x3fe8a4a2f73599e2),
    (0x40168613cde42cb4, 0xbfe36c59b39a0757, 0x3fe96e586399dfd1),
    (0x40169531a0be63d0, 0xbfe30bb47dfb3b2c, 0x3fe9b7093dd671cf),
    (0x40169913206efa03, 0xbfe2f2b89783e29c, 0x3fe9c9779a5a47b2),
    (0x40169b6af1def7ec, 0xbfe2e39a784cb0d2, 0x3fe9d48c88c78e2f),
    (0x4016dee03dd9529c, 0xbfe125d049cf3284, 0x3feb0487ec139759),
    (0x4016f105d5ca8679, 0xbfe0aa8f288dbf61, 0x3feb513c2c561d4d),
    (0x4017a25e9bd0e168, 0xbfd76b3c2376ebba, 0x3fedc7daafe98c0f),
    (0x4017aac088aa6f13, 0xbfd6ee3783e93eaf, 0x3fede0231f0b0f9d),
    (0x4017aea42f7b5e57, 0xbfd6b413e61b7987, 0x3fedeb3ad864504b),
    (0x4017b454f3e6bc72, 0xbfd65edc9fc1c0fe, 0x3fedfb42bfee850c),
    (0x4017b569123b8b6c, 0xbfd64eb097155e13, 0x3fedfe45c6695ce2),
    (0x401822cc3dfcfacd, 0xbfcf91a0c90f1fd8, 0x3fef02f1770308b7),
    (0x401835479a1912a7, 0xbfcd53313b9d85fa, 0x3fef261d2a867541),
    (0x40184830cae74248, 0xbfcb04e46879e575, 0x3fef47698c053c84),
    (0x40186d040f87245c, 0xbfc680cffb05fb73, 0x3fef80687d588886),
    (0x401887c9b933aeec, 0xbfc33393441da51f, 0x3fefa34d2be2ed62),
    (0x4018914c0fcc9358, 0xbfc20684c5f8fa8e, 0x3fefae5d289b2993),
    (0x4018de11b9485e72, 0xbfb0f7373f803a27, 0x3fefedfd9469dc4d),
    (0x4019041f7a1de6d7, 0xbf9ddac4dd2c47ba, 0x3feffc8483f0209a),
    (0x401567c3800dfe4f, 0xbfe9afefea7eb1e9, 0x3fe3154677136aa5),
    (0x4001985403fbfb7d, 0x3fe9e231f353912c, 0xbfe2d0e31f2bc47a),
    (0x4010c617cb9aae82, 0xbfebc97d79643ad8, 0xbfdfbdcaa3b0e63b),
    (0x40136c62d7f88dc5, 0xbfefabd96f34a9f0, 0x3fc24cafb26061c2),
    (0x4009db375e22fae2, 0xbfb71f6d27d3af92, 0xbfefde83e3858fb9),
    (0x4004717c2e52a85c, 0x3fe1b3ac65a1a0e8, 0xbfeaa86d3d1175ab),
    (0x401f56913fb9f1d4, 0x3feffe739c9d19a6, 0x3f93e89765a251d1),
    (0x400f60497fb342bf, 0xbfe683b9a9a07bdd, 0xbfe6bd5e6d0d72d7),
    (0x4016830550aab79a, 0xbfe37fc2e69eacb6, 0x3fe95f7959b3f138),
    (0x40130a7d631e6886, 0xbfeff69f1e0e60da, 0x3fa87e0d24ddd86a),
    (0x40211df1ca7d4d58, 0x3fe861c1769cd3c7, 0xbfe4b998978ff964),
    (0x401700357ece58f9, 0xbfe04261e74d23e8, 0x3feb8fbce30c73f6),
    (0x401072062de3d3fd, 0xbfea645903c05708, 0xbfe2188fd7626f5a),
    (0x401853549bef0506, 0xbfc9a80b8c6cefcf, 0x3fef59bfff985ed1),
    (0x400db90e7915941f, 0xbfe15e9d592c230c, 0xbfeae026bd195f43),
    (0x3f9a6c0bc78b73bd, 0x3f9a6b4ba4200fa5, 0x3feffd45e9ebe652),
    (0x402150012cbc1d10, 0x3fe63e060f1f03ec, 0xbfe7019042e6507a),
    (0x400741b153ef16a9, 0x3fcdbe6100f3d3cc, 0xbfef1fc26d2a9260),
    (0x400a5d85b2647263, 0xbfc3a4b27f5b57c3, 0xbfef9ef5bfe64153),
    (0x3fbf9d90f0bb11a4, 0x3fbf89022231ef7d, 0x3fefc19baf8ddbb0),
    (0x400d5a3594959301, 0xbfe01b538c6c7d23, 0xbfeba6a205a91621),
    (0x3fed8ab7190b635b, 0x3fe985551349caad, 0x3fe34e1bae1c2c43),
    (0x401b8225789d331c, 0x3fe1e84b9d93924a, 0x3fea85309f6097f7),
    (0x401071a485fb5a39, 0xbfea629f19ca50dc, 0xbfe21b14179a7b5d),
    (0x40158a95754763d7, 0xbfe9060c714ee397, 0x3fe3f2043e62bee0),
    (0x3ff6cc2fc5b5335b, 0x3fefa8e8ad5e7692, 0x3fc29d66d1a44aeb),
    (0x401112c4d164fa26, 0xbfece57f72b74d2d, 0xbfdb7eb7f1c117df),
    (0x4008a7db80ac3826, 0x3fae83534c791147, 0xbfeff170846720e2),
    (0x400d9f3cd42bc35f, 0xbfe10786b74e1463, 0xbfeb17a93e66755b),
    (0x4018aa616f01588d, 0xbfbdd5151306b8cd, 0x3fefc82fd1648701),
    (0x4010723dc07b39dc, 0xbfea655462b460e8, 0xbfe2172125929c84),
    (0x40041c5658509dba, 0x3fe2cb6890c05d1b, 0xbfe9e62ca5d18f00),
    (0x40215762cf21fe76, 0x3fe5e886c3fda36b, 0xbfe75309bd27fa16),
    (0x3fda9c93c92b5935, 0x3fd9d9f4ff9505bf, 0x3fed45f74681e2b1),
    (0x401add4aa3345016, 0x3fdad976cb58dc8e, 0x3fed0c3eac846f26),
    (0x3ff65c5d913be4b0, 0x3fef855e6fe4bd7e, 0x3fc610931462a4f4),
    (0x401691cce120198d, 0xbfe3217e9764ee11, 0x3fe9a6d7824cb68c),
    (0x3ff5f45da9c47375, 0x3fef5eeaaec8aa57, 0x3fc9423548d61794),
    (0x4010071422f0bb19, 0xbfe85c97cd323a8a, 0xbfe4bfa9ed3550b1),
    (0x40169e762b163534, 0xbfe2cfed1ec21eac, 0x3fe9e2e4c0cf509b),
    (0x40203da7e7a84852, 0x3feedef0a0edde06, 0xbfd0d9e2eddb71f0),
    (0x3ffeb0b8841e8831, 0x3fee16c33b13a7d0, 0xbfd5c9353991ed2c),
    (0x4011217c44df416c, 0xbfed174fb01a295a, 0xbfdaa95eb408abe9),
    (0x4013d42340e980c5, 0xbfef0bcef1363788, 0x3fcf04fd0e1d465a),
    (0x40229876543fe3b4, 0x3fc0365d2fdbbfd0, 0xbfefbe063067d7d6),
    (0x4011dc8b43c05362, 0xbfef0758d73887c6, 0xbfcf4c17bef6b2e1),
    (0x4011f462e75a4107, 0xbfef33d3c631d71d, 0xbfcc6630ed87e259),
    (0x4016f59fb9882e58, 0xbfe08b17f61b3364, 0x3feb6455d5827420),
    (0x4021137e8a45fc5e, 0x3fe8ccbcfbd937c0, 0xbfe4391a28d68416),
    (0x3ffd6c18b6738ca7, 0x3feedb5c52fdcdc5, 0xbfd0f407b8e1e6be),
    (0x401d4e21343d9212, 0x3feba5b10d191945, 0x3fe01cf11f2b8fc2),
    (0x40066ee0661af3b6, 0x3fd530812dcdf21d, 0xbfee31fa3a755272),
    (0x401369373e0d7f9e, 0xbfefaf6fbb4d87b5, 0x3fc1e84188dc256e),
    (0x400e9bb07bbd8be0, 0xbfe43b398fc196d4, 0xbfe8cb01b69a5637),
    (0x4015b5bf73f20f26, 0xbfe82930f2106f25, 0x3fe4fb6e67c5df2a),
    (0x3ffc6616074a4952, 0x3fef55eb9a2f1edc, 0xbfc9f27abf89f019),
    (0x40217dd2acd0b1d4, 0x3fe418e42e4c095d, 0xbfe8e6de8339dfa2),
    (0x400eb6021927dcf4, 0xbfe48c5c362fbcea, 0xbfe887ed231c9b14),
    (0x401b4fc7122e0c6c, 0x3fe094efe3f60c9e, 0x3feb5e61825ec1a5),
    (0x40143664a8bf5ee6, 0xbfee290d32cfcbfe, 0x3fd5631dfb5e188c),
    (0x401eba09dbd9d068, 0x3fef86b25562e4f6, 0x3fc5f2246a1ee8e7),
    (0x3ff510fae454ea45, 0x3feef8d9811ab526, 0x3fd01752f344fc56),
    (0x4016298087657f5a, 0xbfe5a3d076671cb2, 0x3fe792d7a038a83b),
    (0x40186387d438ca1a, 0xbfc7ab5cc9612d91, 0x3fef72b8c9977ec9),
    (0x4019b57c2d8b0379, 0x3fc25fccc3b76076, 0x3fefab285dd71877),
    (0x400b6958763fb665, 0xbfd1fc0e5a4c609d, 0xbfeeb5e75dabc6e5),
    (0x401a0468543fc13c, 0x3fcc12b99ea40481, 0x3fef388beaf56824),
    (0x4017e080c02c304c, 0xbfd3c39522a2d8ab, 0x3fee6f996d86e02b),
    (0x4009b7bfcf0550f5, 0xbfb2b44a1ac8d222, 0xbfefea1aec361c28),
    (0x3fff5d357cf41d60, 0x3fed9a89573813ee, 0xbfd84cd1c8a8d900),
    (0x4021891cc61b99e5, 0x3fe38b168d8f0506, 0xbfe956c0f2197b9d),
    (0x4015ce0b7b54954a, 0xbfe7a802e6e69e3d, 0x3fe58caa316f437c),
    (0x4018532ea400edea, 0xbfc9acb1dd694c1a, 0x3fef598317e9594c),
    (0x400d1e8cfc5374e9, 0xbfde96cf156921fd, 0xbfec1bb9d7b38d88),
    (0x40141683ba71a7c0, 0xbfee7a8555edf4c3, 0x3fd37fce68dea102),
    (0x4003b48f23aa66cf, 0x3fe4150f2151f860, 0xbfe8e9f5ca812d0f),
    (0x4018b37c6dcb5ed9, 0xbfbb92027225e3f2, 0x3fefd05a8aa1f86c),
    (0x3ff4892d90c6a043, 0x3feeb0378d3927dc, 0x3fd222b90189ae7b),
    (0x4015439fc32dc7a4, 0xbfea58386b475f12, 0x3fe22a33124f1021),
    (0x4007f52df86263cd, 0x3fc2bb8ca3fcaa83, 0xbfefa7cc25c8cdce),
    (0x400a7701378ae30c, 0xbfc537301856b63c, 0xbfef8eb0f20899cf),
    (0x4013c82a54863d84, 0xbfef2279c3fefdf3, 0x3fcd90c247b9defc),
    (0x4020a9362937c812, 0x3fec6f6be9ac76b0, 0xbfdd5b0571237496),
    (0x40154eae3181e1d5, 0xbfea259e72ab0416, 0x3fe272bef812d5a5),
    (0x401ce4b18aaed1da, 0x3fe9d83b628f4671, 0x3fe2de901df793b1),
    (0x4015d8f38e8463f7, 0xbfe76ce950acd184, 0x3fe5ccda50268984),
    (0x400db2867da4cca8, 0xbfe148a6a174d567, 0xbfeaee4bfb424d3b),
    (0x40185e0b24fc5266, 0xbfc857d502860c52, 0x3fef6a7d3537fcba),
    (0x40119e2675a1a7a2, 0xbfee7ea27a37e0d7, 0xbfd36603182c6f9b),
    (0x3ffc81842c2cdbc3, 0x3fef4a9e9f6bccf9, 0xbfcac93706d1547c),
    (0x4017e5136000bbaa, 0xbfd37df1c1c560c5, 0x3fee7ad18e8c504b),
    (0x3fef82875c53afcb, 0x3feaa8bb658ac298, 0x3fe1b336afdfdb52),
    (0x401deba91e6a0c95, 0x3fedca2e56298537, 0x3fd75f62d7cbb0be),
    (0x40098d26e2392935, 0xbfaac7c23c035e8e, 0xbfeff4c94bb44e51),
    (0x4022d4183fbb15e8, 0x3f8590e3c116719c, 0xbfefff8bb9551324),
    (0x4015ea3846690bb5, 0xbfe70df3064dc57c, 0x3fe6312f40ef1e46),
    (0x400b59f695058b4c, 0xbfd185d3c43495ed, 0xbfeec6f8e08b820d),
    (0x4010fe221ddd076f, 0xbfec9d142eb96081, 0xbfdca76aa38205c8),
    (0x40229007c1bb2fa6, 0x3fc24d12effb0980, 0xbfefabd5d9b67866),
    (0x40159044438f2271, 0xbfe8e99d10384d73, 0x3fe4157d328d0387),
    (0x4010b0c6849d0e71, 0xbfeb735fc2c1745d, 0xbfe07217a56733c5),
    (0x4012037b2e33390a, 0xbfef4dc03fbc3d17, 0xbfca8e6c2e58ade6),
    (0x400e528e338c476c, 0xbfe35551ebcdc828, 0xbfe97fdee448202f),
    (0x3fd4cd5b8ab150fc, 0x3fd4701562e5db1f, 0x3fee5310d3612534),
    (0x4014811e444ee88b, 0xbfed4ce90d468496, 0x3fd9ba69a13d9c26),
    (0x400ede1858174d73, 0xbfe5064415dcba40, 0xbfe81fc3eb493d10),
    (0x401d40e661f214c0, 0x3feb6fcf344efd44, 0x3fe07809667eaa9d),
    (0x40050c4d7b002713, 0x3fdf46aaab8fe01a, 0xbfebeb2e27ce27ab),
    (0x4021a4e2c3f9891f, 0x3fe22407320a05e9, 0xbfea5c78b1145fb6),
    (0x40134a201402a20b, 0xbfefce7d3ef65072, 0x3fbc1a5dced6dc3a),
    (0x401dc99d331c1949, 0x3fed6283cf14b717, 0x3fd9571af722a1d7),
    (0x3fe537e739457bf3, 0x3fe3b28627130dee, 0x3fe9382542cc3737),
    (0x4016beb041cdaa85, 0xbfe1fd0459e5d86a, 0x3fea7726df025cd9),
    (0x4018ea9dba27174f, 0xbfabab5940a62354, 0x3feff40764b4ef16),
    (0x401e0ecc47778e83, 0x3fee2c53f918237e, 0x3fd5509993b84099),
    (0x400593923f97090b, 0x3fdb85c3c49695a9, 0xbfece3d219a546fb),
    (0x4022448f45f52da4, 0x3fd25abc508510b3, 0xbfeea7e325804697),
    (0x3ff088aefec4a4b5, 0x3feb7d2a851b92c8, 0x3fe061b459a13e76),
    (0x401ade4ba1e16c5a, 0x3fdae80a84f55c7e, 0x3fed08df3cc561f4),
    (0x400ea849ba09eda1, 0xbfe4622bd7581063, 0xbfe8ab06a4b38029),
    (0x40164f7e19d40494, 0xbfe4c029043b8c24, 0x3fe85c2b8d1a6403),
    (0xbfd0349191ac4e48, 0xbfd00861420d6228, 0x3feefac97052e002),
    (0x3fe8f229be23d1c2, 0x3fe67eb513b13fa2, 0x3fe6c2553237e0e6),
    (0x3ff37504b9647d19, 0x3fee01f9defcf637, 0x3fd63abb68000b8b),
    (0xbfea77a8caada895, 0xbfe78d1d0f5a68eb, 0x3fe5aa0c6bfd1048),
    (0x3feae829206f7ffe, 0x3fe7d8b4f521b32a, 0x3fe556badb7d09d9),
    (0x3fd7b1e8a3c19d38, 0x3fd72846d74b831e, 0x3fedd4eee2387c2f),
    (0xbff0e327ee466841, 0xbfebd8128e9452d1, 0x3fdf8a83be6b379f),
    (0x3ff104a4c16ecd3d, 0x3febf8d75ae2f1d5, 0x3fdf15b13d9fab6c),
    (0x3fd65ba5ba898270, 0x3fd5e7ef8d2ffda2, 0x3fee112ee1b64f64),
    (0x3feb353e4529fb86, 0x3fe80bd65f686f22, 0x3fe51d0bf57d1f8a),
    (0x3fd2b1cd95539a64, 0x3fd26e0925a020a5, 0x3feea4fdf080b4cf),
    (0xbfe7d6758d262707, 0xbfe5b184a2acce95, 0x3fe7863bde137228),
    (0xbff0faf827879a9f, 0xbfebef6c7a8dadc4, 0x3fdf377eff6d78a3),
    (0x3ff02a2306f511dd, 0x3feb1a7f7cd7103b, 0x3fe103027bf7680d),
    (0x3fd7633ac19cfcd8, 0x3fd6dedc49b579d2, 0x3fede31454304485),
    (0x3fe1610c1e2dc7c0, 0x3fe0898a2330013f, 0x3feb65460a0cd4cb),
    (0xbfce020a54363df0, 0xbfcdbbdd6b1c3ce5, 0x3fef1fe8dc1cd31c),
    (0x3fd7dab5414a4250, 0x3fd74e4b0b07de09, 0x3fedcd873819278d),
    (0x3ff27139b1a56b47, 0x3fed3e2e1cc64b11, 0x3fd9fd1c62f8959d),
    (0x3fcfe42c2c4ea500, 0x3fcf8ff7b84b70b2, 0x3fef030c81893bb8),
    (0xbf5f230a9310cc00, 0xbf5f2309589d2838, 0x3feffffc367eb79d),
    (0xbfda6f91900a9268, 0xbfd9b0c23212a93b, 0x3fed4f071bab2425),
    (0xbfbd049ec5535e50, 0xbfbcf4b8f58ba74d, 0x3fefcb6daa796a9a),
    (0x3fedd36b5b2bd782, 0x3fe9b0ef8ca7a351, 0x3fe313ee4a56a50e),
    (0xbfe51b1e52443a94, 0xbfe39bcebc80e129, 0x3fe949d2ebc9b7a5),
    (0x3ff39695d703d7bb, 0x3fee190924970397, 0x3fd5bca25f75dcbf),
    (0x3fd1597a93b699d0, 0x3fd123477d717d5d, 0x3feed4d53098139e),
    (0x3f8d984b77b39b80, 0x3f8d9807f741dca0, 0x3fefff250a0d0215),
    (0xbfbf2271fabaee80, 0xbfbf0ecf99315049, 0x3fefc37d57d27cf8),
    (0xbfe84f8d445c3896, 0xbfe609ed7dfaf2b5, 0x3fe7337ce301c154),
    (0xbfd6bda2fd4318a0, 0xbfd643e7c8caa09e, 0x3fee00468efa0d2a),
    (0xbff2d841ecfcc66b, 0xbfed8f7af5b8e9c9, 0x3fd8826d150c0b67),
    (0x3fe17044468a8dc8, 0x3fe0968fd07f3760, 0x3feb5d6572d6ea5e),
    (0x3fdd0e72f7da3b08, 0x3fdc11880f2195aa, 0x3fecc2203d8162f2),
    (0xbff04ef6cf56272b, 0xbfeb415f812d7410, 0x3fe0c4734351a5de),
    (0x3ff3ad0685a979af, 0x3fee2829c00ef5d5, 0x3fd5682051882cf9),
    (0x3ff267dd98bbe451, 0x3fed368f20630529, 0x3fda1f4e88a90e6c),
    (0x3ff28cf15116d84f, 0x3fed5484e1974d18, 0x3fd997a485fafc4d),
    (0x3fdf930db99d6500, 0x3fde4f2028c1f82e, 0x3fec2f1cf12b788d),
    (0x3fe33f497656ec3e, 0x3fe21b859b7c0b2b, 0x3fea625133402b02),
    (0x3ff921fb54442d18, 0x3ff0000000000000, 0x3c91a62633145c07),
    (0x3ff921fb54442d19, 0x3ff0000000000000, 0xbca72cece675d1fd),
    (0x3ff921fb54442d17, 0x3ff0000000000000, 0x3cb469898cc51702),
    (0x3ff921fb54442d1a, 0x3ff0000000000000, 0xbcbb9676733ae8fe),
    (0x3ff921fb54442d16, 0x3ff0000000000000, 0x3cc234c4c6628b81),
    (0xbff921fb54442d18, 0xbff0000000000000, 0x3c91a62633145c07),
    (0xbff921fb54442d17, 0xbff0000000000000, 0x3cb469898cc51702),
    (0xbff921fb54442d19, 0xbff0000000000000, 0xbca72cece675d1fd),
    (0xbff921fb54442d16, 0xbff0000000000000, 0x3cc234c4c6628b81),
    (0xbff921fb54442d1a, 0xbff0000000000000, 0xbcbb9676733ae8fe),
    (0x400921fb54442d18, 0x3ca1a62633145c07, 0xbff0000000000000),
    (0x400921fb54442d19, 0xbcb72cece675d1fd, 0xbff0000000000000),
    (0x400921fb54442d17, 0x3cc469898cc51702, 0xbff0000000000000),
    (0x400921fb54442d1a, 0xbccb9676733ae8fe, 0xbff0000000000000),
    (0x400921fb54442d16, 0x3cd234c4c6628b81, 0xbff0000000000000),
    (0xc00921fb54442d18, 0xbca1a62633145c07, 0xbff0000000000000),
    (0xc00921fb54442d17, 0xbcc469898cc51702, 0xbff0000000000000),
    (0xc00921fb54442d19, 0x3cb72cece675d1fd, 0xbff0000000000000),
    (0xc00921fb54442d16, 0xbcd234c4c6628b81, 0xbff0000000000000),
    (0xc00921fb54442d1a, 0x3ccb9676733ae8fe, 0xbff0000000000000),
    (0x4012d97c7f3321d2, 0xbff0000000000000, 0xbcaa79394c9e8a0a),
    (0x4012d97c7f3321d3, 0xbff0000000000000, 0x3cc961b1acd85d7d),
    (0x4012d97c7f3321d1, 0xbff0000000000000, 0xbcd34f272993d141),
    (0x4012d97c7f3321d4, 0xbff0000000000000, 0x3cdcb0d8d66c2ebf),
    (0x4012d97c7f3321d0, 0xbff0000000000000, 0xbce1a79394c9e8a1),
    (0xc012d97c7f3321d2, 0x3ff0000000000000, 0xbcaa79394c9e8a0a),
    (0xc012d97c7f3321d1, 0x3ff0000000000000, 0xbcd34f272993d141),
    (0xc012d97c7f3321d3, 0x3ff0000000000000, 0x3cc961b1acd85d7d),
    (0xc012d97c7f3321d0, 0x3ff0000000000000, 0xbce1a79394c9e8a1),
    (0xc012d97c7f3321d4, 0x3ff0000000000000, 0x3cdcb0d8d66c2ebf),
    (0x401921fb54442d18, 0xbcb1a62633145c07, 0x3ff0000000000000),
    (0x401921fb54442d19, 0x3cc72cece675d1fd, 0x3ff0000000000000),
    (0x401921fb54442d17, 0xbcd469898cc51702, 0x3ff0000000000000),
    (0x401921fb54442d1a, 0x3cdb9676733ae8fe, 0x3ff0000000000000),
    (0x401921fb54442d16, 0xbce234c4c6628b81, 0x3ff0000000000000),
    (0xc01921fb54442d18, 0x3cb1a62633145c07, 0x3ff0000000000000),
    (0xc01921fb54442d17, 0x3cd469898cc51702, 0x3ff0000000000000),
    (0xc01921fb54442d19, 0xbcc72cece675d1fd, 0x3ff0000000000000),
    (0xc01921fb54442d16, 0x3ce234c4c6628b81, 0x3ff0000000000000),
    (0xc01921fb54442d1a, 0xbcdb9676733ae8fe, 0x3ff0000000000000),
    (0x401f6a7a2955385e, 0x3ff0000000000000, 0x3cb60fafbfd97309),
    (0x401f6a7a2955385f, 0x3ff0000000000000, 0xbcc4f8282013467c),
    (0x401f6a7a2955385d, 0x3ff0000000000000, 0x3cd583ebeff65cc2),
    (0x401f6a7a29553860, 0x3ff0000000000000, 0xbcda7c141009a33e),
    (0x401f6a7a2955385c, 0x3ff0000000000000, 0x3ce2c1f5f7fb2e61),
    (0xc01f6a7a2955385e, 0xbff0000000000000, 0x3cb60fafbfd97309),
    (0xc01f6a7a2955385d, 0xbff0000000000000, 0x3cd583ebeff65cc2),
    (0xc01f6a7a2955385f, 0xbff0000000000000, 0xbcc4f8282013467c),
    (0xc01f6a7a2955385c, 0xbff0000000000000, 0x3ce2c1f5f7fb2e61),
    (0xc01f6a7a29553860, 0xbff0000000000000, 0xbcda7c141009a33e),
    (0x4022d97c7f3321d2, 0x3cba79394c9e8a0a, 0xbff0000000000000),
    (0x4022d97c7f3321d3, 0xbcd961b1acd85d7d, 0xbff0000000000000),
    (0x4022d97c7f3321d1, 0x3ce34f272993d141, 0xbff0000000000000),
    (0x4022d97c7f3321d4, 0xbcecb0d8d66c2ebf, 0xbff0000000000000),
    (0x4022d97c7f3321d0, 0x3cf1a79394c9e8a1, 0xbff0000000000000),
    (0xc022d97c7f3321d2, 0xbcba79394c9e8a0a, 0xbff0000000000000),
    (0xc022d97c7f3321d1, 0xbce34f272993d141, 0xbff0000000000000),
    (0xc022d97c7f3321d3, 0x3cd961b1acd85d7d, 0xbff0000000000000),
    (0xc022d97c7f3321d0, 0xbcf1a79394c9e8a1, 0xbff0000000000000),
    (0xc022d97c7f3321d4, 0x3cecb0d8d66c2ebf, 0xbff0000000000000),
    (0x4025fdbbe9bba775, 0xbff0000000000000, 0xbcbee2c2d963a10c),
    (0x4025fdbbe9bba776, 0xbff0000000000000, 0x3cd8474f49a717bd),
    (0x4025fdbbe9bba774, 0xbff0000000000000, 0xbce3dc585b2c7422),
    (0x4025fdbbe9bba777, 0xbff0000000000000, 0x3cec23a7a4d38bde),
    (0x4025fdbbe9bba773, 0xbff0000000000000, 0xbcf1ee2c2d963a11),
    (0xc025fdbbe9bba775, 0x3ff0000000000000, 0xbcbee2c2d963a10c),
    (0xc025fdbbe9bba774, 0x3ff0000000000000, 0xbce3dc585b2c7422),
    (0xc025fdbbe9bba776, 0x3ff0000000000000, 0x3cd8474f49a717bd),
    (0xc025fdbbe9bba773, 0x3ff0000000000000, 0xbcf1ee2c2d963a11),
    (0xc025fdbbe9bba777, 0x3ff0000000000000, 0x3cec23a7a4d38bde),
    (0x402921fb54442d18, 0xbcc1a62633145c07, 0x3ff0000000000000),
    (0x402921fb54442d19, 0x3cd72cece675d1fd, 0x3ff0000000000000),
    (0x402921fb54442d17, 0xbce469898cc51702, 0x3ff0000000000000),
    (0x402921fb54442d1a, 0x3ceb9676733ae8fe, 0x3ff0000000000000),
    (0x402921fb54442d16, 0xbcf234c4c6628b81, 0x3ff0000000000000),
    (0xc02921fb54442d18, 0x3cc1a62633145c07, 0x3ff0000000000000),
    (0xc02921fb54442d17, 0x3ce469898cc51702, 0x3ff0000000000000),
    (0xc02921fb54442d19, 0xbcd72cece675d1fd, 0x3ff0000000000000),
    (0xc02921fb54442d16, 0x3cf234c4c6628b81, 0x3ff0000000000000),
    (0xc02921fb54442d1a, 0xbceb9676733ae8fe, 0x3ff0000000000000),
    (0x402c463abeccb2bb, 0x3ff0000000000000, 0x3cc3daeaf976e788),
    (0x402c463abeccb2bc, 0x3ff0000000000000, 0xbcd6128a83448c3c),
    (0x402c463abeccb2ba, 0x3ff0000000000000, 0x3ce4f6babe5db9e2),
    (0x402c463abeccb2bd, 0x3ff0000000000000, 0xbceb094541a2461e),
    (0x402c463abeccb2b9, 0x3ff0000000000000, 0x3cf27b5d5f2edcf1),
    (0xc02c463abeccb2bb, 0xbff0000000000000, 0x3cc3daeaf976e788),
    (0xc02c463abeccb2ba, 0xbff0000000000000, 0x3ce4f6babe5db9e2),
    (0xc02c463abeccb2bc, 0xbff0000000000000, 0xbcd6128a83448c3c),
    (0xc02c463abeccb2b9, 0xbff0000000000000, 0x3cf27b5d5f2edcf1),
    (0xc02c463abeccb2bd, 0xbff0000000000000, 0xbceb094541a2461e),
    (0x402f6a7a2955385e, 0x3cc60fafbfd97309, 0xbff0000000000000),
    (0x402f6a7a2955385f, 0xbcd4f8282013467c, 0xbff0000000000000),
    (0x402f6a7a2955385d, 0x3ce583ebeff65cc2, 0xbff0000000000000),
    (0x402f6a7a29553860, 0xbcea7c141009a33e, 0xbff0000000000000),
    (0x402f6a7a2955385c, 0x3cf2c1f5f7fb2e61, 0xbff0000000000000),
    (0xc02f6a7a2955385e, 0xbcc60fafbfd97309, 0xbff0000000000000),
    (0xc02f6a7a2955385d, 0xbce583ebeff65cc2, 0xbff0000000000000),
    (0xc02f6a7a2955385f, 0x3cd4f8282013467c, 0xbff0000000000000),
    (0xc02f6a7a2955385c, 0xbcf2c1f5f7fb2e61, 0xbff0000000000000),
    (0xc02f6a7a29553860, 0x3cea7c141009a33e, 0xbff0000000000000),
    (0x4031475cc9eedf01, 0xbff0000000000000, 0x3cd3ddc5bce200bb),
    (0x4031475cc9eedf02, 0xbff0000000000000, 0x3cf4f7716f38802f),
    (0x4031475cc9eedf00, 0xbff0000000000000, 0xbce6111d218effa2),
    (0x4031475cc9eedf03, 0xbff0000000000000, 0x3d027bb8b79c4017),
    (0x4031475cc9eedeff, 0xbff0000000000000, 0xbcfb088e90c77fd1),
    (0xc031475cc9eedf01, 0x3ff0000000000000, 0x3cd3ddc5bce200bb),
    (0xc031475cc9eedf00, 0x3ff0000000000000, 0xbce6111d218effa2),
    (0xc031475cc9eedf02, 0x3ff0000000000000, 0x3cf4f7716f38802f),
    (0xc031475cc9eedeff, 0x3ff0000000000000, 0xbcfb088e90c77fd1),
    (0xc031475cc9eedf03, 0x3ff0000000000000, 0x3d027bb8b79c4017),
    (0x4032d97c7f3321d2, 0xbcca79394c9e8a0a, 0x3ff0000000000000),
    (0x4032d97c7f3321d3, 0x3ce961b1acd85d7d, 0x3ff0000000000000),
    (0x4032d97c7f3321d1, 0xbcf34f272993d141, 0x3ff0000000000000),
    (0x4032d97c7f3321d4, 0x3cfcb0d8d66c2ebf, 0x3ff0000000000000),
    (0x4032d97c7f3321d0, 0xbd01a79394c9e8a1, 0x3ff0000000000000),
    (0xc032d97c7f3321d2, 0x3cca79394c9e8a0a, 0x3ff0000000000000),
    (0xc032d97c7f3321d1, 0x3cf34f272993d141, 0x3ff0000000000000),
    (0xc032d97c7f3321d3, 0xbce961b1acd85d7d, 0x3ff0000000000000),
    (0xc032d97c7f3321d0, 0x3d01a79394c9e8a1, 0x3ff0000000000000),
    (0xc032d97c7f3321d4, 0xbcfcb0d8d66c2ebf, 0x3ff0000000000000),
    (0x4480f0cf064dd592, 0xbfeb453ab76bf397, 0x3fe0be2cef01c8f4),
    (0xc480f0cf064dd592, 0x3feb453ab76bf397, 0x3fe0be2cef01c8f4),
    (0x43b0000000000000, 0xbfea94adab06665c, 0xbfe1d146047d6947),
    (0x4c70000000000000, 0xbfdea642f4f78780, 0xbfec17843662ee23),
    (0x7e37e43c8800759c, 0xbfea2c16b010e385, 0xbfe2699022adc4c1),
    (0xfe37e43c8800759c, 0x3fea2c16b010e385, 0xbfe2699022adc4c1),
    (0x7506ac5b262ca1ff, 0x3ff0000000000000, 0xbc214ae72e6ba22f),
    (0x7fefffffffffffff, 0x3f7452fc98b34e97, 0xbfefffe62ecfab75),
    (0xffefffffffffffff, 0xbf7452fc98b34e97, 0xbfefffe62ecfab75),
    (0x7fe0000000000000, 0x3fe205248cbdb760, 0xbfea719f26c232bf),
    (0x7e88000000000000, 0xbfdd88a50486fab1, 0x3fec6399e8b707b1),
    (0x412e848000000000, 0xbfd6664b2568d867, 0x3fedf9df9906d32c),
    (0x41cdcd6500000000, 0x3fe1778cae83c69b, 0x3feacff8c7364234),
    (0x414921fb54442d18, 0xbde1a62633145c07, 0x3ff0000000000000),
    (0x419d6f3454000000, 0x3fefaf0521c8dc5c, 0x3fc1f4077c91589f),
    (0x3e45798ee2308c3a, 0x3e45798ee2308c3a, 0x3ff0000000000000),
    (0xbe45798ee2308c3a, 0xbe45798ee2308c3a, 0x3ff0000000000000),
    (0x3e40000000000000, 0x3e40000000000000, 0x3ff0000000000000),
    (0x01a56e1fc2f8f359, 0x01a56e1fc2f8f359, 0x3ff0000000000000),
    (0x0000000000000001, 0x0000000000000001, 0x3ff0000000000000),
    (0x8000000000000001, 0x8000000000000001, 0x3ff0000000000000),
    (0x0010000000000000, 0x0010000000000000, 0x3ff0000000000000),
    (0x0000000000000000, 0x0000000000000000, 0x3ff0000000000000),
    (0x8000000000000000, 0x8000000000000000, 0x3ff0000000000000),
    (0x4020d8589d428edc, 0x3feaf72b7555ca5b, 0xbfe13acb7bcadc27),
    (0x40166723944d93c2, 0xbfe42ebffab8e9bb, 0x3fe8d52a7d85e3ce),
    (0x40158f0005ff745e, 0xbfe8eff7d21c3cd9, 0x3fe40d98c6d3f670),
    (0x3fe1fafb78829554, 0x3fe10c91f1a43bbf, 0x3feb147cf7294ce4),
    (0x401b86421278f988, 0x3fe20384f3d85119, 0x3fea72ba4944f233),
    (0x40228228ed6bceed, 0x3fc5b9d59e03953b, 0xbfef89223eaf7bbd),
    (0x4015209b907a1a71, 0xbfeaf34371b4c7ed, 0x3fe140e70afd3c66),
    (0x401c8903a6a48e48, 0x3fe80dd3d42a22f9, 0x3fe51ac78565a119),
    (0x401f4163878178aa, 0x3feff967f82604ff, 0x3fa489e7a6ec58d8),
    (0x401a2d6475b68c03, 0x3fd0861b2b8eef8c, 0x3feeea40fe7a6cdd),
    (0x40141909f5f6edca, 0xbfee745823265d09, 0x3fd3a642a58eb01b),
    (0x400828cf0e347879, 0x3fbf11e088866f2a, 0xbfefc371593ee645),
    (0x4018b0f9e24516ee, 0xbfbc31b0adec1117, 0x3fefce2aade0b693),
    (0x402015cfb4c9d1a8, 0x3fef6eb547e626ae, 0xbfc80012c4015ce7),
    (0x3fd3f5555b68a7f6, 0x3fd3a2ebed1334d5, 0x3fee74e1f470e35b),
    (0x4022a0d17ff7948a, 0x3fbc46b2c89ed590, 0xbfefcde013ece0f3),
    (0x4020b070dc44b8fd, 0x3fec39a4875a9c0b, 0xbfde27d50115bb03),
    (0x4012ce8c7a9ce44b, 0xbfefff885ee63342, 0xbf85dfedea089e53),
    (0x4021ecd074e985e2, 0x3fdc8aa90c1080a5, 0xbfeca442a9fef4b2),
    (0x402047f73b5acfe3, 0x3feeb1e851d2f2a6, 0xbfd21743d3580ddc),
    (0x4020e7371f1d7ef7, 0x3fea742e75d33a4b, 0xbfe20162556dd3ef),
    (0x3fd63f8991d38b3a, 0x3fd5cd83f2ce6972, 0x3fee15fb89381d44),
    (0x401ebee3df736b5d, 0x3fef8d42b471f9b2, 0x3fc559207c694bc7),
    (0x401a80622a4d268d, 0x3fd579a74683a1c0, 0x3fee250c0dcae8b4),
    (0x400ea23f1a1e08ca, 0xbfe44f85013f58e1, 0xbfe8ba644d8bf8c9),
    (0x400bf3d7e6ce1650, 0xbfd6180ef2f0f67d, 0xbfee0860141cb07b),
    (0x40217c5b053aed06, 0x3fe42b24026df690, 0xbfe8d81901946b1f),
    (0x4000cc5813e788d4, 0x3feba054e973081c, 0xbfe0261ff801210b),
    (0x4006bafa9be260de, 0x3fd2ee68f4075e6e, 0xbfee916752b3e244),
    (0x400b842986f9dc98, 0xbfd2c98b4f3a6331, 0xbfee9716762ac17a),
    (0x3ff0904614a661fb, 0x3feb84ecdc614514, 0x3fe054a82cc987df),
    (0x3fe520744d69edff, 0x3fe3a005f238af82, 0x3fe9468d89bde5b3),
];
