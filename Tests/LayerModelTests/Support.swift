/// A path inside the repository, from this file's location (tests may run from any directory).
func repoPath(_ relative: String) -> String {
  let parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
  return parts.dropLast(3).joined(separator: "/") + "/" + relative
}
