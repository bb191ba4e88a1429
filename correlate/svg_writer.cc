#include "correlate/svg_writer.h"

#include <fmt/format.h>

namespace sassim::correlate {
namespace {

std::string title_element(std::string_view tooltip) {
  return tooltip.empty() ? std::string() : fmt::format("<title>{}</title>", xml_escape(tooltip));
}

}  // namespace

std::string xml_escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

Svg::Svg(double width, double height) : width_(width), height_(height) {}

void Svg::line(double x1, double y1, double x2, double y2, std::string_view attributes) {
  body_ += fmt::format("<line x1=\"{:.2f}\" y1=\"{:.2f}\" x2=\"{:.2f}\" y2=\"{:.2f}\" {}/>\n", x1,
                       y1, x2, y2, attributes);
}

void Svg::rect(double x, double y, double width, double height, std::string_view attributes,
               std::string_view tooltip) {
  body_ += fmt::format(
      "<rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" {}>{}</rect>\n", x, y,
      width, height, attributes, title_element(tooltip));
}

void Svg::circle(double cx, double cy, double r, std::string_view attributes,
                 std::string_view tooltip) {
  body_ += fmt::format("<circle cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"{:.2f}\" {}>{}</circle>\n", cx, cy,
                       r, attributes, title_element(tooltip));
}

void Svg::text(double x, double y, std::string_view content, std::string_view attributes) {
  body_ += fmt::format("<text x=\"{:.2f}\" y=\"{:.2f}\" {}>{}</text>\n", x, y, attributes,
                       xml_escape(content));
}

void Svg::raw(std::string_view markup) {
  body_ += markup;
  body_ += '\n';
}

std::string Svg::str() const {
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:g}\" height=\"{1:g}\" "
      "viewBox=\"0 0 {0:g} {1:g}\" font-family=\"sans-serif\" font-size=\"12\">\n{2}</svg>\n",
      width_, height_, body_);
}

}  // namespace sassim::correlate
