#pragma once
// A minimal SVG document builder: shapes and text in pixel coordinates, attributes given
// as ready-made attribute text (`stroke="#333" stroke-width="1"`). Text is XML-escaped.
#include <string>
#include <string_view>

namespace sassim::correlate {

std::string xml_escape(std::string_view text);

class Svg {
 public:
  Svg(double width, double height);
  void line(double x1, double y1, double x2, double y2, std::string_view attributes);
  void rect(double x, double y, double width, double height, std::string_view attributes,
            std::string_view tooltip = {});
  void circle(double cx, double cy, double r, std::string_view attributes,
              std::string_view tooltip = {});
  void text(double x, double y, std::string_view content, std::string_view attributes);
  // Raw markup (definitions such as a clipPath); the caller guarantees it is well formed.
  void raw(std::string_view markup);
  // The document: an <svg> element with xmlns, width, height and viewBox.
  std::string str() const;

 private:
  double width_;
  double height_;
  std::string body_;
};

}  // namespace sassim::correlate
