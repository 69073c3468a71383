/// Windows and Mac code pages, as RTF (`\ansicpg`, `\fcharset`) and Excel
/// (CODEPAGE) name them, mapped to the charset names ICU converts.
enum WindowsCodePage {
    /// ICU's name for a code page; windows-1252 for one it does not know.
    static func charset(_ codePage: Int) -> String {
        switch codePage {
        case 874, 1250...1258: "windows-\(codePage)"
        case 932: "windows-31j"
        case 936: "GBK"
        case 949: "windows-949"
        case 950: "Big5"
        case 1200: "UTF-16LE"
        case 10000, 0x8000: "macintosh"
        case 437, 850, 852, 855, 857, 860, 861, 862, 863, 864, 865, 866, 869: "ibm-\(codePage)"
        case 65001: "UTF-8"
        default: "windows-1252"
        }
    }
}
