//! An application's picture of its result (`treesplit_apps::instance::Picture`, RGB pixels)
//! to a PNG file, drawn with plotters' bitmap backend (already a dependency for the charts).

use plotters::prelude::*;
use treesplit_apps::instance::Picture;

/// Draw `picture` to its file.
pub fn draw(picture: &Picture) -> Result<(), String> {
    let n = picture.side;
    let root = BitMapBackend::new(&picture.path, (n, n)).into_drawing_area();
    for (p, &[r, g, b]) in (picture.pixels)().iter().enumerate() {
        let (x, y) = ((p as u32 % n) as i32, (p as u32 / n) as i32);
        root.draw_pixel((x, y), &RGBColor(r, g, b))
            .map_err(|e| e.to_string())?;
    }
    root.present().map_err(|e| e.to_string())
}
