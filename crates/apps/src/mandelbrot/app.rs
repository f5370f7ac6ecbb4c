//! The command line's face of the Mandelbrot set: its subcommand's arguments, how they become
//! an instance, and what the instance tells the commands (its task, the count of points
//! computed, its picture).

use super::{MandelParams, Mandelbrot};
use crate::app::{AppError, RunOption};
use crate::instance::{Instance, Picture};
use crate::params::{Param, Type, Values};
use crate::spec::{AppVisitor, Published};
use std::path::PathBuf;

/// `treesplit run mandelbrot [--n N] [--png FILE] …`.
pub struct App;

/// The grid, t̂ and the picture.
const PARAMS: &[Param] = &[
    Param::long("n", Type::U64, "Grid points per side").default("1024"),
    Param::long("z0", Type::Text, "The lower left corner z0 as RE,IM")
        .default("-2,-1.25")
        .negative(),
    Param::long("a0", Type::F64, "The side length a0 of the square")
        .default("2.5")
        .negative(),
    Param::long("max-iter", Type::U64, "The most steps per point (t̂)").default("1000"),
    Param::long(
        "png",
        Type::Path,
        "Draw the set to this PNG file (computed again after the run, with rayon)",
    ),
];

impl crate::app::App for App {
    fn name(&self) -> &'static str {
        "mandelbrot"
    }

    fn about(&self) -> &'static str {
        "The Mandelbrot set on an n×n grid c(j,k) = z0 + (j + i·k)·a0/n (paper 001 §14.1.2): points in the set and steps in all, bit-identical on every machine"
    }

    fn params(&self) -> &'static [Param] {
        PARAMS
    }

    fn example(&self) -> &'static [&'static str] {
        &["--n", "64", "--max-iter", "100"]
    }
}

impl crate::app::Parse for App {
    type Instance = MandelSpec;

    fn parse(
        &self,
        values: &Values,
        _given: &dyn Fn(RunOption) -> bool,
    ) -> Result<Self::Instance, AppError> {
        let (n, z0, a0, max_iter, png): (u64, String, f64, u64, _) = (
            values.value("n")?,
            values.value("z0")?,
            values.value("a0")?,
            values.value("max-iter")?,
            values.path("png"),
        );
        Self::instance(n, &z0, a0, max_iter, png).map_err(AppError::BadInput)
    }
}

impl App {
    /// The instance of these values, checked.
    fn instance(
        n: u64,
        z0: &str,
        a0: f64,
        max_iter: u64,
        png: Option<PathBuf>,
    ) -> Result<MandelSpec, String> {
        let bad = || format!("mandelbrot --z0 expects RE,IM (two numbers), got '{z0}'");
        let (re, im) = z0.split_once(',').ok_or_else(bad)?;
        let part = |s: &str| s.trim().parse::<f64>().map_err(|_| bad());
        let params = MandelParams {
            n,
            z0_re: part(re)?,
            z0_im: part(im)?,
            a0,
            max_iter,
        };
        params.validate()?;
        if let Some(path) = &png {
            let png_ext = path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| e.eq_ignore_ascii_case("png"));
            if !png_ext {
                return Err(format!(
                    "mandelbrot --png {}: the file name must end in .png",
                    path.display()
                ));
            }
            if params.n > 1 << 14 {
                return Err(format!(
                    "mandelbrot --png draws one pixel per point: --n {} is more than 16384 pixels a side",
                    params.n
                ));
            }
        }
        Ok(MandelSpec { params, png })
    }
}

/// A Mandelbrot run and where to draw it.
#[derive(Debug, Clone, PartialEq)]
pub struct MandelSpec {
    /// The grid and t̂.
    pub params: MandelParams,
    /// Draw the set to this PNG file after the run.
    pub png: Option<PathBuf>,
}

impl Instance for MandelSpec {
    /// Checked by its count of points: every point computed once.
    fn visit<V: AppVisitor>(&self, visitor: V) -> V::Out {
        let p = self.params;
        visitor.visit(
            move || Mandelbrot::new(p).expect("validated Mandelbrot parameters"),
            move |c| {
                Some(Published {
                    source: "every point computed once".into(),
                    value: treesplit::words::count(p.points(), "point", "points"),
                    matches: c.points == p.points(),
                })
            },
        )
    }

    fn cli_args(&self) -> String {
        let p = &self.params;
        format!(
            "mandelbrot --n {} --z0 {},{} --a0 {} --max-iter {}",
            p.n, p.z0_re, p.z0_im, p.a0, p.max_iter
        )
    }

    /// ~5 ns per step.
    fn default_delta_t(&self) -> u64 {
        2048
    }

    /// `--png`: the set drawn, computed again.
    fn picture(&self) -> Option<Picture> {
        let path = self.png.clone()?;
        let params = self.params;
        Some(Picture {
            path,
            side: self.params.n as u32,
            pixels: Box::new(move || super::picture(&params)),
        })
    }
}
