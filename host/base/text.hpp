// Small text helpers every layer uses: case folding and trimming of the names
// and fields the traces and configs hold.
#pragma once

#include <string>
#include <string_view>

namespace gs {

// ASCII lower case.
std::string lower(std::string_view text);

// Without the spaces, tabs and carriage returns at either end.
std::string_view trim(std::string_view text);

}  // namespace gs
