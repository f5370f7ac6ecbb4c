//! `mandelbrot --png`: the set as a picture, one pixel per grid point (row k of the grid is
//! pixel row n−1−k, so the imaginary axis points up), black in the set, else shaded by the
//! escape step. Drawn with plotters' bitmap backend (already a dependency for the charts).
//! The step counts are computed again, with rayon, after the run that reported them.

use plotters::prelude::*;
use std::path::Path;
use treesplit_apps::mandelbrot::{step_grid, MandelParams};

/// Draw the Mandelbrot grid of `params` to the PNG file `path`.
pub fn mandelbrot_png(path: &Path, params: &MandelParams) -> Result<(), String> {
    let n = params.n as u32;
    let steps = step_grid(params);
    let root = BitMapBackend::new(path, (n, n)).into_drawing_area();
    let t_max = params.max_iter as f64;
    for (p, &t) in steps.iter().enumerate() {
        let (j, k) = ((p as u64 % params.n) as i32, (p as u64 / params.n) as i32);
        let color = if t >= params.max_iter {
            RGBColor(0, 0, 0)
        } else {
            // Logarithmic shading: most points escape within a few steps.
            let s = ((t as f64).ln_1p() / t_max.ln_1p()).clamp(0.0, 1.0);
            RGBColor(
                (255.0 * s) as u8,
                (255.0 * s.sqrt()) as u8,
                (128.0 + 127.0 * s) as u8,
            )
        };
        root.draw_pixel((j, n as i32 - 1 - k), &color)
            .map_err(|e| e.to_string())?;
    }
    root.present().map_err(|e| e.to_string())
}
