import { kindOfHeadline } from '../../nodes/shared/redaction';

/*
 * What a survey question asks, by its headline (issue 23 §1), in the seven languages the README
 * names: personal questions in several phrasings, and questions that only mention a person or
 * name a thing.
 */

const PERSONAL: Record<string, Array<[string, string]>> = {
	English: [
		['Your full name', 'NAME'],
		['WHAT IS YOUR NAME?', 'NAME'],
		['First name', 'NAME'],
		['Surname', 'NAME'],
		['Name of a referee', 'NAME'],
		['Referee’s name', 'NAME'],
		['Your referee', 'NAME'],
		['Referee 2 (optional)', 'NAME'],
		['Parent / guardian', 'NAME'],
		['Emergency contact', 'NAME'],
		['Who referred you?', 'NAME'],
		['What should we call you?', 'NAME'],
		['Name as it appears on your passport', 'NAME'],
		['Instagram handle', 'NAME'],
		['Birth name', 'NAME'],
		['What’s your e-mail address?', 'EMAIL'],
		['E-Mail', 'EMAIL'],
		['Your e\u2011mail', 'EMAIL'],
		['Referee’s e-mail', 'EMAIL'],
		['Mobile phone (optional)', 'PHONE'],
		['Tel.', 'PHONE'],
		['Contact number', 'PHONE'],
		['Emergency contact phone', 'PHONE'],
		['Date of birth', 'BIRTHDATE'],
		['When were you born?', 'BIRTHDATE'],
		['Your date of birth (DD/MM/YYYY)', 'BIRTHDATE'],
		['Home address', 'ADDRESS'],
		['Mailing address', 'ADDRESS'],
		['Where do you live?', 'ADDRESS'],
		['Street & house number', 'ADDRESS'],
		['postcode', 'ADDRESS'],
		['Country of residence', 'ADDRESS'],
		['Passport number', 'ID'],
		['National ID number', 'ID'],
		['IBAN', 'ID'],
	],
	French: [
		['Nom complet', 'NAME'],
		['Prénom', 'NAME'],
		['Nom de famille', 'NAME'],
		['Comment vous appelez-vous ?', 'NAME'],
		['Qui vous a recommandé ?', 'NAME'],
		['Tuteur légal', 'NAME'],
		['Adresse e-mail', 'EMAIL'],
		['Courriel', 'EMAIL'],
		['Numéro de téléphone', 'PHONE'],
		['Date de naissance', 'BIRTHDATE'],
		['Adresse postale', 'ADDRESS'],
		['Ville', 'ADDRESS'],
		['Numéro de sécurité sociale', 'ID'],
	],
	German: [
		['Vorname', 'NAME'],
		['Vor- und Nachname', 'NAME'],
		['Vollständiger Name', 'NAME'],
		['Wie heißen Sie?', 'NAME'],
		['Wer hat Sie empfohlen?', 'NAME'],
		['Künstlername', 'NAME'],
		['Ansprechpartner', 'NAME'],
		['E-Mail-Adresse', 'EMAIL'],
		['Telefonnummer', 'PHONE'],
		['Geburtsdatum', 'BIRTHDATE'],
		['Anschrift', 'ADDRESS'],
		['Straße und Hausnummer', 'ADDRESS'],
		['Reisepassnummer', 'ID'],
	],
	Spanish: [
		['Nombre completo', 'NAME'],
		['Nombre y apellidos', 'NAME'],
		['¿Cómo te llamas?', 'NAME'],
		['Persona que te recomendó', 'NAME'],
		['Contacto de emergencia', 'NAME'],
		['Correo electrónico', 'EMAIL'],
		['Dirección de correo electrónico', 'EMAIL'],
		['Teléfono', 'PHONE'],
		['Fecha de nacimiento', 'BIRTHDATE'],
		['Dirección', 'ADDRESS'],
		['Documento de identidad', 'ID'],
	],
	Italian: [
		['Nome e cognome', 'NAME'],
		['Indirizzo email', 'EMAIL'],
		['Numero di cellulare', 'PHONE'],
		['Data di nascita', 'BIRTHDATE'],
		['Indirizzo', 'ADDRESS'],
		['Codice fiscale', 'ID'],
	],
	Portuguese: [
		['Nome completo', 'NAME'],
		['Endereço de e-mail', 'EMAIL'],
		['Telemóvel', 'PHONE'],
		['Data de nascimento', 'BIRTHDATE'],
		['Morada', 'ADDRESS'],
	],
	Dutch: [
		['Volledige naam', 'NAME'],
		['Voornaam', 'NAME'],
		['Hoe heet je?', 'NAME'],
		['E-mailadres', 'EMAIL'],
		['Telefoonnummer', 'PHONE'],
		['Geboortedatum', 'BIRTHDATE'],
		['Woonplaats', 'ADDRESS'],
	],
};

const NOT_PERSONAL: Record<string, string[]> = {
	English: [
		'Project name',
		'Name of your project',
		'What’s the name of your company?',
		'Name of the school you attend',
		'Name your project',
		'What is your project called?',
		'Applicant statement',
		'Candidate’s statement',
		'Relationship to the applicant',
		'Applicant type',
		'Are you the applicant?',
		'How many referees do you have?',
		'Which areas can you mentor in?',
		'Who is your target audience?',
		'Your referee’s organisation',
		'Website address',
		'Would you like to join our mailing list?',
		'How do you handle feedback?',
		'Link to your portfolio',
		'Your artist statement',
		'Working title',
		'Years of experience',
		'How likely are you to recommend us?',
		'Decision',
		'Budget',
		'Your employer',
	],
	French: ['Nom du projet', 'Nom de l’entreprise', "Nombre d'années d'expérience"],
	German: ['Projektname', 'Name des Projekts', 'Firmenname', 'Wie haben Sie von uns erfahren?'],
	Spanish: ['Nombre del proyecto', 'Nombre de la empresa'],
	Italian: ['Nome del progetto', 'Nome dell’azienda', 'Titolo dell’opera'],
	Portuguese: ['Nome do projeto', 'Nome da empresa'],
	Dutch: ['Projectnaam', 'Bedrijfsnaam', 'Naam van het project'],
};

describe('what a headline asks for', () => {
	describe.each(Object.keys(PERSONAL))('%s', (language) => {
		it.each(PERSONAL[language])('"%s" asks for %s', (headline, kind) => {
			expect(kindOfHeadline(headline)).toBe(kind);
		});
		it.each(NOT_PERSONAL[language])('"%s" asks for no personal data', (headline) => {
			expect(kindOfHeadline(headline)).toBeUndefined();
		});
	});
});
