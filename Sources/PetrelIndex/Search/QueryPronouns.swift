/// Personal pronouns of the first and second person, and their
/// possessives, as the ICU tokenizer folds them, in the languages the
/// evaluation sets cover: `I`, `my`, `we`, `you`; `ich`, `mein`, `wir`;
/// `je`, `nous`, `vous`; `yo`, `nuestro`; `я`, `мы`, `вы`; `我`, `你`; `私`,
/// `あなた`; `저는`, `우리`.
///
/// A question is asked in the first person ("How can I find out which
/// package installed a file?") and its answer is not written that way
/// ("dpkg -S names the package…"). In a collection of answers such a word
/// is rare, so BM25 gives it a large IDF, and a page that happens to say
/// "I" outranks the one that answers. The ranking weighs these words at
/// ``RankingParameters/pronounWeight`` of their IDF. Third-person pronouns
/// are left out: they are frequent enough to weigh little already, and
/// `ihr`, `su`, `its` are also other words.
enum QueryPronouns {
    static let words: Set<String> = [
        // English
        "i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "you", "your", "yours",
        // German
        "ich", "mich", "mir", "mein", "meine", "meinen", "meinem", "meiner", "meines",
        "wir", "uns", "unser", "unsere", "unseren", "unserem", "unserer", "du", "dich", "dir", "dein", "deine", "euch",
        // French (`j'ai` is `j`, `ai`)
        "je", "j", "moi", "mon", "ma", "mes", "nous", "notre", "nos", "tu", "toi", "ton", "ta", "tes", "vous", "votre", "vos",
        // Spanish
        "yo", "mi", "mis", "mio", "nosotros", "nosotras", "nuestro", "nuestra", "nuestros", "nuestras",
        "usted", "ustedes", "vosotros", "ti", "tus",
        // Russian
        "я", "меня", "мне", "мной", "мой", "моя", "моё", "мое", "мои", "моего", "моей", "мы", "нас", "нам", "наш", "наша", "наши",
        "ты", "тебя", "тебе", "твой", "вы", "вас", "вам", "ваш", "ваша", "ваши",
        // Chinese
        "我", "我们", "我們", "你", "你们", "你們", "您",
        // Japanese
        "私", "僕", "俺", "あなた", "わたし",
        // Korean
        "저", "제", "나", "내", "저는", "제가", "나는", "내가", "우리", "저희",
    ]
}
