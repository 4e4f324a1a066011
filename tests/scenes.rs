//! The preset scene files shipped to the page load and behave.
use ropelab::scene::Scene;

#[test]
fn presets_load_and_settle() {
    for (name, text) in [
        ("rope", include_str!("../www/scenes/rope.json")),
        ("bridge", include_str!("../www/scenes/bridge.json")),
        ("net", include_str!("../www/scenes/net.json")),
    ] {
        let scene = Scene::from_json(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(scene.name, name);
        let mut w = scene.build().unwrap();
        assert!(w.particles.len() > 10 && !w.links.is_empty());
        for _ in 0..600 {
            w.step(1.0 / 60.0).unwrap();
        }
        assert!(w.particles.pos.iter().all(|p| p.is_finite()), "{name}: non-finite position");
        let walls = w.settings.walls.unwrap();
        assert!(w.particles.pos.iter().all(|p| p.y >= walls.min.y - 1e-4 && p.x >= walls.min.x - 1e-4));
    }
}
