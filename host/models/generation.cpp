#include "host/models/generation.hpp"

#include <fmt/format.h>

#include "kernels/ziggurat.hpp"

namespace gs {

const char* const kUniformRule = "u = (word + 1/2)/2^32";

std::string box_muller_words(int radius_words, int angle_word) {
  return fmt::format("Box-Muller: radius from words {},{} as a 64-bit uniform, angle from word {}", radius_words,
                     radius_words + 1, angle_word);
}

std::string ziggurat_words(std::uint32_t draw) {
  return fmt::format(
      "ziggurat: the first from words 0,1, the second from words 2,3 as 64-bit candidates; their "
      "rare retries k = 0, 1, ... at draws {} + 2k and {} + 2k",
      ziggurat_retry_draw(draw, 0, 0), ziggurat_retry_draw(draw, 1, 0));
}

std::string describe_philox_uses(const std::vector<PhiloxUse>& uses) {
  std::string text;
  for (const PhiloxUse& use : uses) {
    if (!text.empty()) text += "; ";
    text += fmt::format("{}: one Philox call at (replica r, position {}, draw {}); {}", use.serves, use.position,
                        use.draw, use.words);
  }
  return text;
}

std::vector<FftProblem> fft_problems(const SpectralPlan& plan) {
  const FftProblem inverse{plan.inverse_length, false};
  if (plan.method == SpectralMethod::circulant) return {inverse};
  return {FftProblem{plan.fft_length, true}, inverse};
}

}  // namespace gs
