// Option assignments, as `--set GROUP.OPTION=VALUE` and Python's options={...} give them: each
// line of the input is one assignment (Settings::set_assignment), then the settings are checked
// for a method and a smoother drawn from the input (check_settings) and every group is read
// (OptionValues, free_space_options, search_options). Bad text must end in an InputError with a
// key and a one-line message; what is accepted must hold a value inside its declared limits.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_target.hpp"
#include "polynav/plan/options.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/plan/registry.hpp"

namespace {

using namespace polynav;

// An InputError from the option checks: it names the option (or the assignment) it refuses.
void check_refusal(const InputError& e) {
  fuzz::check(!e.message().empty());
  fuzz::check(!e.where().key_path.empty());
  fuzz::check(std::string_view(e.what()).find('\n') == std::string_view::npos);
}

// Every declared option of a group, read as its type, lies inside its limits.
void check_group(std::string_view group, const std::vector<OptionSpec>& specs,
                 const Settings& settings) {
  const OptionValues values(group, specs, settings);
  for (const OptionSpec& spec : specs) {
    if (spec.type == OptionType::number || spec.type == OptionType::integer) {
      if (spec.default_value == "auto" && values.text(spec.name) == "auto") continue;
      // Integers are read as numbers too (counts: option_count), so both are checked that way.
      const double v = values.number(spec.name);
      fuzz::check(!std::isnan(v));
      if (spec.type == OptionType::integer) fuzz::check(std::isinf(v) || v == std::floor(v));
      // A limit of 1e308 means none: infinity may then stand for "no limit".
      const bool above_min = spec.min_exclusive ? v > spec.min : v >= spec.min;
      const bool below_max = v <= spec.max || (std::isinf(v) && v > 0 && spec.max >= 1e308);
      fuzz::check(above_min && below_max);
    } else if (spec.type == OptionType::flag) {
      (void)values.flag(spec.name);
    } else {
      (void)values.text(spec.name);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::as_text(data, size);
  const std::uint64_t h = fuzz::input_hash(text);
  const std::vector<MethodEntry>& methods = method_registry();
  const std::vector<SmootherEntry>& smoothers = smoother_registry();
  const MethodEntry& method = methods[h % methods.size()];
  const SmootherEntry& smoother = smoothers[(h / 7) % smoothers.size()];

  Settings settings;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    try {
      settings.set_assignment(text.substr(start, end - start));
    } catch (const InputError& e) {
      check_refusal(e);
    }
    start = end + 1;
  }
  try {
    check_settings(settings, method.name, smoother.name);
  } catch (const InputError& e) {
    check_refusal(e);
    return 0;
  }
  try {
    check_group(method.name, method.options, settings);
    check_group(smoother.name, smoother.options, settings);
    check_group("search", search_option_specs(), settings);
    check_group("space", space_option_specs(), settings);
    (void)search_options(OptionValues("search", search_option_specs(), settings));
    (void)free_space_options(settings);
  } catch (const InputError& e) {
    // check_settings accepted these settings: reading them must not refuse them.
    (void)e;
    fuzz::check(false);
  }
  return 0;
}
