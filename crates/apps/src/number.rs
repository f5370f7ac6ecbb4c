//! The shape shared by the single-number applications (N-Queens, Golomb rulers, numerical
//! semigroups, fib, the tree sum), written once: one number on the command line, checked by
//! the task's own constructor; an instance that is that number; a task made from it; a
//! published value its result is checked against; a default Δt; optionally a rayon depth,
//! hand-written peers, or a search whose answers are judged as an optimisation.
//! [`number_app!`] writes an application's `App`, `Parse`, parameter, instance type and
//! [`Instance`](crate::instance::Instance) from those facts, so that the application's
//! `app.rs` holds only what is its own (its published values, its peers). It names no
//! application.

/// Writes a single-number application's command-line face in the module that invokes it:
///
/// ```text
/// number_app! {
///     /// Doc of the `App` unit struct.
///     app "name";
///     about "The subcommand's help";
///     param Param::positional("n", Type::U32, "The number's help").required(); // its one parameter
///     number u32;                      // the number's type
///     words "name {}";                 // the instance's command-line words, from the number
///     /// Doc of the instance type.
///     instance NameSpec;
///     task Name::new;                  // fn(number) -> Result<Task, String>: checks, builds
///     published published;             // fn(number, &Output) -> Option<Published>
///     delta_t 4096;
///     example ["8"];
///     rayon_depth 3;                   // optional: the rayon peer's default cut-off
///     peers peers;                     // optional: fn(number) -> impl Peers
///     optimization true;               // optional: a search judged by its optimum
/// }
/// ```
macro_rules! number_app {
    (
        $(#[$app_doc:meta])*
        app $name:literal;
        about $about:literal;
        param $param:expr;
        number $ty:ty;
        words $words:literal;
        $(#[$spec_doc:meta])*
        instance $spec:ident;
        task $task:path;
        published $published:path;
        delta_t $delta_t:literal;
        example [$($example:literal),* $(,)?];
        $(rayon_depth $rayon:expr;)?
        $(peers $peers:path;)?
        $(optimization $optimization:literal;)?
    ) => {
        $(#[$app_doc])*
        pub struct App;

        /// The one parameter: the number.
        const PARAMS: &[$crate::params::Param] = &[$param];

        impl $crate::app::App for App {
            fn name(&self) -> &'static str {
                $name
            }

            fn about(&self) -> &'static str {
                $about
            }

            fn params(&self) -> &'static [$crate::params::Param] {
                PARAMS
            }

            $(
                fn rayon_depth(&self) -> Option<u32> {
                    Some($rayon)
                }
            )?

            fn example(&self) -> &'static [&'static str] {
                &[$($example),*]
            }
        }

        impl $crate::app::Parse for App {
            type Instance = $spec;

            fn parse(
                &self,
                values: &$crate::params::Values,
                _given: &dyn Fn($crate::app::RunOption) -> bool,
            ) -> Result<$spec, $crate::app::AppError> {
                let n: $ty = values.value(PARAMS[0].name)?;
                $task(n).map_err($crate::app::AppError::BadInput)?;
                Ok($spec(n))
            }
        }

        $(#[$spec_doc])*
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct $spec(pub $ty);

        impl $crate::instance::Instance for $spec {
            fn visit<V: $crate::spec::AppVisitor>(&self, visitor: V) -> V::Out {
                let n = self.0;
                visitor.visit(
                    move || $task(n).expect(concat!("a validated ", $name, " instance")),
                    move |output| $published(n, output),
                )
            }

            fn cli_args(&self) -> String {
                format!($words, self.0)
            }

            fn default_delta_t(&self) -> u64 {
                $delta_t
            }

            $(
                fn is_optimization(&self) -> bool {
                    $optimization
                }
            )?

            $(
                fn visit_peer<V: $crate::instance::PeerVisitor>(
                    &self,
                    visitor: V,
                ) -> Option<V::Out> {
                    let n = self.0;
                    Some(visitor.visit(
                        move || $task(n).expect(concat!("a validated ", $name, " instance")),
                        $peers(n),
                    ))
                }
            )?
        }
    };
}

pub(crate) use number_app;
