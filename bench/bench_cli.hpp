#pragma once
// The benchmark programs' command lines, read with CLI11 as the polynav tool reads its own.

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace bench_cli {

// Parses the command line into `app`. After --help (the help printed) it returns 0, after a
// usage error (the error printed) 2, the status the benchmarks exit with on bad usage; nothing
// when the run goes on.
inline std::optional<int> parse(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  return std::nullopt;
}

// An option taking one value, shown in --help as `name TYPE=default`.
template <class T>
CLI::Option* add_value(CLI::App& app, const std::string& name, T& value, const std::string& type,
                       const std::string& description) {
  return app.add_option(name, value, description)->type_name(type)->capture_default_str();
}

// A comma-separated list in one argument ("1000,10000"), replacing the default (shown in --help
// unless empty); the next argument is never taken as part of it.
template <class T>
CLI::Option* add_list(CLI::App& app, const std::string& name, std::vector<T>& values,
                      const std::string& description) {
  CLI::Option* option =
      app.add_option(name, values, description)->delimiter(',')->allow_extra_args(false);
  if (!values.empty()) option->capture_default_str();
  return option;
}

}  // namespace bench_cli
