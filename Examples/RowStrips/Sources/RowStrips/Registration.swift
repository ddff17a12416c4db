import BenchKit

extension RowStrips {
  /// Makes `row-strips` a strategy of every verb: its name in the registry, its frame and
  /// profile loops specialised here, where its type is known.
  public static func register() {
    Strategies.register(frameStrategy: RowStrips.self)
  }
}
