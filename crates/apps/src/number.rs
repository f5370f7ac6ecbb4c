//! The shape shared by the single-number applications (N-Queens, Golomb rulers, numerical
//! semigroups, fib, the tree sum), written once: one number on the command line, checked by
//! the task's own constructor; an instance that is that number; a task made from it; a
//! published value its result is checked against; a default Δt; optionally a rayon depth,
//! hand-written peers, or a search whose answers are judged as an optimisation.
//! [`number_app!`] writes an application's `App`, `Parse`, clap arguments, instance type and
//! [`Instance`](crate::instance::Instance) from those facts, so that the application's
//! `app.rs` holds only what is its own (its published values, its peers). It names no
//! application.

/// Writes a single-number application's command-line face in the module that invokes it:
///
/// ```text
/// number_app! {
///     /// Doc of the `App` unit struct.
///     app "name";
///     /// The subcommand's help (the clap `Args` doc).
///     args { /// The number's help.
///            n: u32 }
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
        $(#[$args_doc:meta])*
        args { $(#[$field_attr:meta])* $field:ident : $ty:ty $(,)? }
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

        $(#[$args_doc])*
        #[derive(Debug, clap::Args)]
        struct Args {
            $(#[$field_attr])*
            $field: $ty,
        }

        impl $crate::app::App for App {
            fn name(&self) -> &'static str {
                $name
            }

            fn command(&self) -> clap::Command {
                $crate::app::command::<Args>(self.name())
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
                args: &clap::ArgMatches,
                _given: &dyn Fn(&str) -> bool,
            ) -> Result<$spec, String> {
                let Args { $field } = $crate::app::typed(args)?;
                $task($field)?;
                Ok($spec($field))
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
