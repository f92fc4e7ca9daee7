#include "host/app/completion.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <vector>

namespace gs {

namespace {

// The option's names as typed: -o, --output.
std::vector<std::string> spellings(const CLI::Option& option) {
  std::vector<std::string> names;
  for (const std::string& name : option.get_snames()) names.push_back("-" + name);
  for (const std::string& name : option.get_lnames()) names.push_back("--" + name);
  return names;
}

// The values an IsMember check accepts, from the type name CLI11 shows in
// --help ("TEXT:{auto,cpu,cuda}"); empty where the option takes any value.
std::vector<std::string> listed_values(const CLI::Option& option) {
  const std::string type = option.get_type_name();
  const std::size_t open = type.find(":{"), close = type.rfind('}');
  if (open == std::string::npos || close == std::string::npos || close < open) return {};
  std::vector<std::string> values;
  std::size_t at = open + 2;
  while (at <= close) {
    const std::size_t comma = std::min(type.find(',', at), close);
    values.push_back(type.substr(at, comma - at));
    at = comma + 1;
  }
  return values;
}

std::string words(const std::vector<std::string>& list) { return fmt::format("{}", fmt::join(list, " ")); }

// One command's case arms: `command:--option) values;;` for options with a
// list of values (`command:command)` for a first positional with one), and
// the command's options.
void add_command(const CLI::App& command, std::string& values_cases, std::string& options_cases) {
  std::vector<std::string> options;
  bool first_positional = true;
  for (const CLI::Option* option : command.get_options()) {
    std::vector<std::string> names = spellings(*option);
    options.insert(options.end(), names.begin(), names.end());
    if (names.empty()) {  // a positional: its values complete after the command's name, where it is the first
      if (!first_positional) continue;
      first_positional = false;
      names = {command.get_name()};
    }
    const std::vector<std::string> values = listed_values(*option);
    if (!values.empty())
      values_cases += fmt::format("    {}:{}) values=\"{}\" ;;\n", command.get_name(), fmt::join(names, "|"),
                                  words(values));
  }
  options_cases += fmt::format("    {}) options=\"{}\" ;;\n", command.get_name(), words(options));
}

}  // namespace

std::string bash_completion(const CLI::App& app) {
  std::vector<std::string> commands;
  std::string values_cases, options_cases;
  for (const CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; })) {
    commands.push_back(command->get_name());
    add_command(*command, values_cases, options_cases);
  }
  // A first word that is no command is a config: `gpusynth CONFIG.yaml` runs it.
  return fmt::format(R"(# bash completion for gpusynth (made by `gpusynth completion bash`)
_gpusynth() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}} command="" values="" options=""
  if [ "$COMP_CWORD" -gt 1 ]; then
    case ${{COMP_WORDS[1]}} in
      {commands_pattern}) command=${{COMP_WORDS[1]}} ;;
      -*) ;;
      *) command=run ;;
    esac
  fi
  if [ -z "$command" ]; then
    if [[ $cur == -* ]]; then
      COMPREPLY=($(compgen -W "--help --version" -- "$cur"))
    else
      COMPREPLY=($(compgen -W "{commands}" -- "$cur") $(compgen -f -- "$cur"))
    fi
    return
  fi
  case "$command:$prev" in
{values_cases}  esac
  if [ -n "$values" ] && [[ $cur != -* ]]; then
    COMPREPLY=($(compgen -W "$values" -- "$cur"))
    return
  fi
  case $command in
{options_cases}  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$options" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}}
complete -o filenames -o bashdefault -F _gpusynth gpusynth
)",
                     fmt::arg("commands_pattern", fmt::join(commands, "|")), fmt::arg("commands", words(commands)),
                     fmt::arg("values_cases", values_cases), fmt::arg("options_cases", options_cases));
}

}  // namespace gs
