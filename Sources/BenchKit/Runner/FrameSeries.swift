/// A result's frames one by one, for a picture of the run (`hitbench report`): every measured
/// frame's wall time, its phases and its CPU time, in order. A run of more frames than
/// `maxPoints` is cut into equal bins of consecutive frames and each bin keeps its slowest
/// frame whole, so a spike is never averaged away. JSON `series`.
public struct FrameSeries: Sendable, Equatable {
  /// How many measured frames each point stands for (1: every frame).
  public var stride: Int
  /// Each point's first frame, counted from the first measured one.
  public var firstFrame: [Int] = []
  public var frameNs: [Double] = []
  public var buildNs: [Double] = []
  public var updateNs: [Double] = []
  public var queriesNs: [Double] = []
  /// CPU time of the frame's thread, and of every other thread (build workers, background).
  public var cpuThreadNs: [Double] = []
  public var cpuHelpersNs: [Double] = []

  /// At most this many points a result (a chart a few hundred pixels wide shows no more).
  public static let maxPoints = 600

  public init(stride: Int) { self.stride = stride }

  /// The series of `timings`, binned to at most `maxPoints` points by their slowest frame.
  public init(_ timings: [FrameTiming], maxPoints: Int = FrameSeries.maxPoints) {
    let n = timings.count
    stride = Swift.max(1, (n + Swift.max(maxPoints, 1) - 1) / Swift.max(maxPoints, 1))
    var start = 0
    while start < n {
      let end = Swift.min(n, start + stride)
      var worst = start
      for i in start..<end where timings[i].frameNs > timings[worst].frameNs { worst = i }
      let t = timings[worst]
      firstFrame.append(start)
      frameNs.append(Double(t.frameNs))
      buildNs.append(Double(t.presentationNs))
      updateNs.append(Double(t.updateNs))
      queriesNs.append(Double(t.queriesNs))
      cpuThreadNs.append(Double(t.cpuThreadNs))
      cpuHelpersNs.append(Double(t.cpuNs >= t.cpuThreadNs ? t.cpuNs - t.cpuThreadNs : 0))
      start = end
    }
  }

  /// The named columns, in the JSON's order.
  public var columns: [(String, [Double])] {
    [
      ("frameNs", frameNs), ("buildNs", buildNs), ("updateNs", updateNs), ("queriesNs", queriesNs),
      ("cpuThreadNs", cpuThreadNs), ("cpuHelpersNs", cpuHelpersNs),
    ]
  }
}
