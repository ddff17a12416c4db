/// Frames of one scene over time, drawn in one view, written as an animated SVG (SMIL: each
/// frame shown in turn for `frameSeconds`, looping; no script) or as one self-contained HTML
/// page (the frames inline, a time slider and a play button; no network, no external file).
/// Every frame is drawn beforehand, so the file is about the frames' pictures added up.
public struct PictureSequence {
  public struct Frame {
    public var time: Double
    public var body: [String]
    public var defs: [String]
    public var legend: [String]

    public init(time: Double, body: [String], defs: [String], legend: [String]) {
      self.time = time
      self.body = body
      self.defs = defs
      self.legend = legend
    }
  }

  public let view: PictureView
  public var frames: [Frame] = []
  /// How long each frame shows when played.
  public var frameSeconds = 0.1

  public init(view: PictureView) { self.view = view }

  /// The id prefix of frame k's definitions (clip paths must be unique in one document).
  public static func idPrefix(_ k: Int) -> String { "f\(k)-" }

  /// A fraction of the loop in [0, 1] with six decimals (keyTimes need more than two).
  static func _fraction(_ x: Double) -> String {
    let micro = Int((Swift.min(Swift.max(x, 0), 1) * 1_000_000).rounded())
    if micro == 1_000_000 { return "1" }
    let digits = String(micro)
    return "0." + String(repeating: "0", count: 6 - digits.count) + digits
  }

  func _frameGroup(_ k: Int, visible: Bool, animate: Bool) -> [String] {
    let f = frames[k]
    var out = [
      "<g class=\"frame\" id=\"frame\(k)\" data-time=\"\(f.time)\"\(visible ? "" : " visibility=\"hidden\"")>"
    ]
    if animate && frames.count > 1 {
      // Discrete visibility: hidden, visible during its slot, hidden again, over one loop.
      let n = Double(frames.count)
      let start = Self._fraction(Double(k) / n)
      let end = Self._fraction(Double(k + 1) / n)
      let values: String
      let times: String
      if k == 0 {
        values = "visible;hidden"
        times = "0;\(end)"
      } else if k == frames.count - 1 {
        values = "hidden;visible"
        times = "0;\(start)"
      } else {
        values = "hidden;visible;hidden"
        times = "0;\(start);\(end)"
      }
      out.append(
        "<animate attributeName=\"visibility\" calcMode=\"discrete\" values=\"\(values)\" keyTimes=\"\(times)\" "
          + "dur=\"\(SVGDocument.number(frameSeconds * n))s\" repeatCount=\"indefinite\"/>")
    }
    out += f.body
    out.append(FramePicture.legend(f.legend, in: view))
    out.append("</g>")
    return out
  }

  func _document(animate: Bool) -> SVGDocument {
    var doc = SVGDocument(width: view.width, height: view.height)
    doc.append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>")
    for (k, f) in frames.enumerated() {
      f.defs.forEach { doc.define($0) }
      _frameGroup(k, visible: k == 0, animate: animate).forEach { doc.append($0) }
    }
    return doc
  }

  /// The animated SVG.
  public func svg() -> String { _document(animate: true).text }

  /// The page: the SVG (no animation of its own) under a slider over the frames and a play
  /// button; the script only shows one frame group and hides the others.
  public func html(title: String) -> String {
    let svg = _document(animate: false).text
    let body = svg.drop { $0 != "\n" }.dropFirst()  // the XML declaration stays out of HTML
    let last = Swift.max(frames.count - 1, 0)
    let times = frames.map { "\($0.time)" }.joined(separator: ",")
    return """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'">
      <title>\(SVGDocument.escaped(title))</title>
      <style>
      body { font-family: sans-serif; margin: 12px; }
      #controls { margin-bottom: 8px; }
      #slider { width: 480px; vertical-align: middle; }
      svg { max-width: 100%; max-height: 88vh; height: auto; width: auto; }
      </style>
      </head>
      <body>
      <div id="controls">
      <button id="play" type="button">play</button>
      <input id="slider" type="range" min="0" max="\(last)" step="1" value="0">
      <span id="time"></span>
      </div>
      \(body)
      <script>
      (function () {
        var times = [\(times)];
        var frames = document.querySelectorAll("g.frame");
        var slider = document.getElementById("slider");
        var label = document.getElementById("time");
        var button = document.getElementById("play");
        var timer = null;
        function show(k) {
          for (var i = 0; i < frames.length; i++) {
            frames[i].setAttribute("visibility", i === k ? "visible" : "hidden");
          }
          slider.value = k;
          label.textContent = "t = " + times[k] + " s (" + (k + 1) + " of " + frames.length + ")";
        }
        slider.addEventListener("input", function () { show(Number(slider.value)); });
        button.addEventListener("click", function () {
          if (timer !== null) { clearInterval(timer); timer = null; button.textContent = "play"; return; }
          button.textContent = "pause";
          timer = setInterval(function () { show((Number(slider.value) + 1) % frames.length); }, \(Int(frameSeconds * 1000)));
        });
        show(0);
      })();
      </script>
      </body>
      </html>

      """
  }
}
