/**
 * A file URL that macOS, Windows and Linux NLEs all open: "/Volumes/A B/c#1.mov" ->
 * "file:///Volumes/A%20B/c%231.mov", "C:\Footage\a.mov" -> "file:///C:/Footage/a.mov", a UNC
 * path "\\server\share\x.mov" -> "file://server/share/x.mov". Every byte outside RFC 3986's
 * unreserved set and the path's "/" is percent-encoded as UTF-8 (Premiere and Resolve decode
 * "%20", and "#" or "?" in a file name would otherwise end the path). `host` "localhost" gives
 * the "file://localhost/..." spelling Final Cut 7 XML readers expect.
 */
export function fileUrl(nativePath: string, host = ''): string {
  const encode = (segment: string) => encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const unc = /^\\\\([^\\]+)\\(.*)$/.exec(nativePath);
  if (unc) return `file://${unc[1]}/${unc[2]!.split('\\').map(encode).join('/')}`;
  const drive = /^([A-Za-z]):[\\/](.*)$/.exec(nativePath);
  if (drive) return `file://${host}/${drive[1]!.toUpperCase()}:/${drive[2]!.split(/[\\/]/).map(encode).join('/')}`;
  return `file://${host}${nativePath.split('/').map(encode).join('/')}`;
}
