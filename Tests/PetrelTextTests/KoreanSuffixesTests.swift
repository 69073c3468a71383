import PetrelText
import Testing

@Suite("KoreanSuffixes")
struct KoreanSuffixesTests {
    @Test(arguments: [
        ("카메라로", "카메라"), ("카메라를", "카메라"), ("웹카메라을", "웹카메라"), ("파일을", "파일"),
        ("문서에서", "문서"), ("설정하려면", "설정"), ("설정합니다", "설정"), ("변경하는", "변경"),
        ("사용자들의", "사용자"), ("저장된", "저장"), ("프로그램으로", "프로그램"),
    ])
    func particlesAndEndingsComeOff(word: String, stem: String) {
        #expect(KoreanSuffixes.stem(of: word) == stem)
    }

    @Test(arguments: ["카메라", "파일", "창을", "한국", "camera", "東京タワー", "카메라x"])
    func wordsWithNothingToTakeOffOrTooShortAreLeft(word: String) {
        // 카메라 has no suffix; 창을 would leave one syllable; the others are not Hangul.
        #expect(KoreanSuffixes.stem(of: word) == nil)
    }

    @Test func theLongestSuffixWins() {
        // 에서는, not 는: 문서에서 is not a stem.
        #expect(KoreanSuffixes.stem(of: "문서에서는") == "문서")
        #expect(KoreanSuffixes.stem(of: "디렉터리으로부터") == "디렉터리")
    }
}
